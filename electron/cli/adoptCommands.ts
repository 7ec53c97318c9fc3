// `distributor-inspector compare-folder DEST [SOURCE] [--json]` and
// `distributor-inspector adopt DEST [SOURCE] [--pipeline ID] [--destination ID] [--yes] [--json]`:
// a folder compare of DEST against what a publish of SOURCE (default: the source its workspace
// configures) writes, path by path, and the adopt of an unmanaged folder whose every such file
// already matches: only its state file is written, through applyFlow.ts's one confirm/apply/print
// flow, journaled and backed up like any apply (`backups restore` removes the state again). They ask
// the service through the one door (door.ts) and hold no rules. Exit 0 when every expected file
// matches (compare-folder) or adopted or not applied (adopt), 1 when files differ or are missing
// or the adopt is refused, 2 input errors.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import path from 'node:path';
import type { ResponseOf } from '../../shared/api';
import { folderCountsText, type FolderEntry } from '../../shared/folderCompare';
import { doorSteps, replaceFlow } from './applyFlow';
import { CliError, EXIT_FINDINGS, EXIT_OK, type Command } from './command';
import { cliPlaces, openLocalDestination, placeOptions, withLocalDoor } from './door';
import { agentOption, remoteNamed, valueOf } from './hostPaths';
import { installedCommand } from '../service/installedCommand';
import { makeStyle, type Style } from './style';
import { printable } from './terminalText';

/** Beyond this many rows the text says how many more; --json always has all. */
const LIST_LIMIT = 1000;

const SIGNS: Record<FolderEntry['status'], string> = { matches: '=', differs: '≠', missing: '-', extra: '+' };

function entryDetails(entry: FolderEntry): string {
  const details: string[] = [];
  if (entry.kind && entry.kind !== 'file') details.push(entry.kind.replace('_', ' '));
  if (entry.actual?.linkTarget !== undefined) details.push(`→ ${printable(entry.actual.linkTarget)} (not followed)`);
  if (entry.reason === 'size_mismatch' && entry.expected)
    details.push(`${entry.actual?.size ?? '?'} bytes, the source's ${entry.expected.size}`);
  if (entry.reason === 'hash_mismatch') details.push('same size, other bytes');
  if (entry.reason === 'unreadable') details.push('could not be read');
  if (entry.expected?.generated) details.push(`generated from ${printable(entry.expected.source_path)}`);
  return details.join(', ');
}

export function folderCompareText(compared: ResponseOf<'compareFolder'>, style: Style): string {
  const lines = [
    `${style.bold('Folder compare')} of ${printable(compared.destinationPath)} (${compared.destinationStatus})`,
    `with ${printable(compared.source.path)} (${printable(compared.source.id)}, created ${printable(compared.source.created)})`,
    '',
    style.bold(folderCountsText(compared.counts)),
    '',
  ];
  const width = Math.max(...compared.entries.map((entry) => entry.path.length), 0);
  const color = { matches: style.dim, differs: style.yellow, missing: style.red, extra: (text: string) => text };
  for (const entry of compared.entries.slice(0, LIST_LIMIT)) {
    const details = entryDetails(entry);
    lines.push(
      `  ${color[entry.status](`${SIGNS[entry.status]} ${entry.status.padEnd(7)}`)} ${printable(entry.path).padEnd(width)}${details ? `  ${details}` : ''}`,
    );
  }
  if (compared.entries.length > LIST_LIMIT) lines.push(`  … ${compared.entries.length - LIST_LIMIT} more (--json lists them all)`);
  lines.push('');
  if (compared.adoptable)
    lines.push(
      `${style.green('Adoptable')}: every file the source publishes is already in place. \`${printable(installedCommand())} adopt DEST\` writes only its state file.`,
    );
  else {
    lines.push(`${style.yellow('Not adoptable')}:`);
    for (const blocker of compared.blockers) lines.push(`  ${printable(blocker.message)}`);
  }
  return `${lines.join('\n')}\n`;
}

export const compareFolderCommand: Command = {
  name: 'compare-folder',
  usage: 'compare-folder DEST [SOURCE] [--json] [--agent CMD] [--connect-timeout SECONDS] [--workspace W]',
  summary:
    'Compare the folder DEST with what publishing SOURCE (default: the source its workspace configures) writes: each file matches, differs, is missing or is extra; and whether DEST can be adopted',
  options: { json: { type: 'boolean' }, ...agentOption, workspace: placeOptions.workspace },
  positionals: [1, 2],
  async run({ positionals, options }, io) {
    const style = makeStyle(io.isTerminal, io.env);
    const print = (compared: ResponseOf<'compareFolder'>) => {
      io.stdout(options.json === true ? `${JSON.stringify(compared, null, 2)}\n` : folderCompareText(compared, style));
      return compared.counts.differs + compared.counts.missing === 0 ? EXIT_OK : EXIT_FINDINGS;
    };
    const remote = remoteNamed({ DEST: positionals[0], SOURCE: positionals[1] }, options, 'compare-folder');
    if (remote) {
      const { DEST: dest, SOURCE: source, '--workspace': workspace } = remote;
      const { openHostDestination, withHostDoor } = await import('./hostDoor');
      return withHostDoor(options, io, async (door) => {
        const opened = await openHostDestination(door, dest!, workspace);
        const answer = await door.call('compareFolder', { destination: opened.id, ...(source ? { source: source.path } : {}) });
        return print(valueOf(answer, 'compare-folder'));
      });
    }
    const places = cliPlaces(options, io);
    return withLocalDoor(places, async (door) => {
      const opened = await openLocalDestination(door, positionals[0] as string, places, io, 'compare-folder');
      const source = positionals[1] !== undefined ? path.resolve(io.cwd, positionals[1]) : undefined;
      if (source === undefined && opened.source === undefined)
        throw new CliError('give SOURCE (a source bundle folder), or a workspace whose file configures the source of DEST');
      const answer = await door.call('compareFolder', { destination: opened.id, ...(source !== undefined ? { source } : {}) });
      return print(valueOf(answer, 'compare-folder'));
    });
  },
};

function configuredId(value: string | boolean | undefined, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new CliError(`--${option} needs a non-empty id`);
  return value;
}

export const adoptCommand: Command = {
  name: 'adopt',
  usage:
    'adopt DEST [SOURCE] [--pipeline ID] [--destination ID] [--yes] [--json] [--agent CMD] [--connect-timeout SECONDS] [--workspace W | --history FILE] [--backup-dir DIR | --no-backup]',
  summary:
    'Adopt the unmanaged folder DEST whose every file from SOURCE (default: its configured source) already matches: only its state file is written, extra files stay, nothing is moved or deleted',
  options: {
    pipeline: { type: 'string' },
    destination: { type: 'string' },
    yes: { type: 'boolean' },
    json: { type: 'boolean' },
    ...agentOption,
    ...placeOptions,
  },
  positionals: [1, 2],
  async run({ positionals, options }, io) {
    const ids = {
      ...(configuredId(options.pipeline, 'pipeline') !== undefined ? { pipelineId: options.pipeline as string } : {}),
      ...(configuredId(options.destination, 'destination') !== undefined ? { destinationId: options.destination as string } : {}),
    };
    const remote = remoteNamed({ DEST: positionals[0], SOURCE: positionals[1] }, options, 'adopt');
    if (remote) {
      const { DEST: dest, SOURCE: source, '--workspace': workspace } = remote;
      const { openHostDestination, withHostDoor } = await import('./hostDoor');
      return withHostDoor(options, io, async (door) => {
        const opened = await openHostDestination(door, dest!, workspace);
        const plan = () => door.call('planAdopt', { destination: opened.id, ...(source ? { source: source.path } : {}), ...ids });
        return replaceFlow(doorSteps(door, opened, plan, 'planAdopt'), options, io, 'adopt');
      });
    }
    const places = cliPlaces(options, io);
    return withLocalDoor(places, async (door) => {
      const opened = await openLocalDestination(door, positionals[0] as string, places, io, 'adopt');
      const source = positionals[1] !== undefined ? path.resolve(io.cwd, positionals[1]) : undefined;
      if (source === undefined && opened.source === undefined)
        throw new CliError('give SOURCE (the bundle whose files DEST holds), or a workspace whose file configures the source of DEST');
      const plan = () => door.call('planAdopt', { destination: opened.id, ...(source !== undefined ? { source } : {}), ...ids });
      return replaceFlow(doorSteps(door, opened, plan, 'planAdopt', places.backupsOff), options, io, 'adopt');
    });
  },
};
