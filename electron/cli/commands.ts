// The table of subcommands, in the order `--help` lists them. One line per command.

import type { Command } from './command';
import { demoCommand } from './demoCommand';
import { scanCommand } from './scanCommand';

export const commands: Command[] = [scanCommand, demoCommand];
