// The table of subcommands, in the order `--help` lists them. One line per command.

import type { Command } from './command';
import { compareCommand } from './compareCommand';
import { demoCommand } from './demoCommand';
import { inspectCommand } from './inspectCommand';
import { replaceCommand } from './replaceCommand';
import { scanCommand } from './scanCommand';
import { serveCommand } from './serveCommand';

export const commands: Command[] = [inspectCommand, scanCommand, compareCommand, replaceCommand, demoCommand, serveCommand];
