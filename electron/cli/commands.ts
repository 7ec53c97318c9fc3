// The table of subcommands, in the order `--help` lists them. One line per command, loaded only when
// it runs (or when --help lists them all): a cold `inspect` parses the inspect code and nothing else,
// not the browser host, markdown-it or replace (esbuild makes each import() below a chunk).
// Must never import a command module statically: that would put it back into every start.

import type { Command } from './command';

export interface CommandEntry {
  /** The word on the command line; the loaded command's own name, which a test holds equal. */
  name: string;
  load: () => Promise<Command>;
}

export const commands: CommandEntry[] = [
  { name: 'inspect', load: async () => (await import('./inspectCommand')).inspectCommand },
  { name: 'scan', load: async () => (await import('./scanCommand')).scanCommand },
  { name: 'compare', load: async () => (await import('./compareCommand')).compareCommand },
  { name: 'compare-folder', load: async () => (await import('./adoptCommands')).compareFolderCommand },
  { name: 'diff', load: async () => (await import('./diffCommand')).diffCommand },
  { name: 'replace', load: async () => (await import('./replaceCommand')).replaceCommand },
  { name: 'repair', load: async () => (await import('./recoveryCommands')).repairCommand },
  { name: 'discard-staging', load: async () => (await import('./recoveryCommands')).discardStagingCommand },
  { name: 'adopt', load: async () => (await import('./adoptCommands')).adoptCommand },
  { name: 'history', load: async () => (await import('./historyCommand')).historyCommand },
  { name: 'backups', load: async () => (await import('./backupsCommand')).backupsCommand },
  { name: 'demo', load: async () => (await import('./demoCommand')).demoCommand },
  { name: 'serve', load: async () => (await import('./serveCommand')).serveCommand },
  { name: 'agent', load: async () => (await import('./agentCommand')).agentCommand },
];
