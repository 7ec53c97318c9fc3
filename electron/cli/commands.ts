// The table of subcommands, in the order `--help` lists them. One line per command.

import type { Command } from './command';

export const commands: Command[] = [];
