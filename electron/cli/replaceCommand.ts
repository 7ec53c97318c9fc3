// `distributor-inspector replace DEST [SOURCE] [--pipeline ID] [--destination ID] [--base-url URL]
// [--force] [--include-nested] [--allow-other-owner] [--yes] [--json]`: plans a normal (or forced)
// replace, prints the plan, and applies it only with --yes or a confirmation typed on a terminal
// (force: the destination id). Asks the service through the one door (door.ts): in the command's
// workspace DEST takes its configured ids, source, base URL, backups folder and journal, as in the
// app; without one, its backups and journal are the user's own. It holds no rules. Without --yes and
// a confirmation it never changes anything. Exit 0 done (or dry run), 1 refused or failed, 2 input errors.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import path from 'node:path';
import { doorSteps, replaceFlow } from './applyFlow';
import { CliError, type Command } from './command';
import { cliPlaces, openLocalDestination, placeOptions, withLocalDoor, type Door, type OpenedDestination } from './door';
import { agentOption, remotePaths } from './hostPaths';
import type { SshTarget } from '../../shared/sshUrl';

function optionalId(value: string | boolean | undefined, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new CliError(`--${option} needs a non-empty value`);
  return value;
}

type ReplaceRequest = {
  mode: 'replace' | 'force';
  source?: string;
  baseUrl?: string;
  pipelineId?: string;
  destinationId?: string;
  allowOtherOwner?: boolean;
  applyAtOnce?: boolean;
};

function planOf(door: Door, opened: OpenedDestination, request: ReplaceRequest) {
  return () => door.call('planReplace', { destination: opened.id, ...request });
}

export const replaceCommand: Command = {
  name: 'replace',
  usage:
    'replace DEST [SOURCE] [--pipeline ID] [--destination ID] [--base-url URL] [--force] [--include-nested] [--allow-other-owner] [--yes] [--json] [--agent CMD] [--connect-timeout SECONDS] [--workspace W | --history FILE] [--backup-dir DIR | --no-backup]',
  summary:
    'Plan a replace of DEST with SOURCE (or the source its workspace configures; --force: delete everything first); apply only with --yes or a typed confirmation',
  options: {
    pipeline: { type: 'string' },
    destination: { type: 'string' },
    'base-url': { type: 'string' },
    force: { type: 'boolean' },
    'include-nested': { type: 'boolean' },
    'allow-other-owner': { type: 'boolean' },
    yes: { type: 'boolean' },
    json: { type: 'boolean' },
    ...agentOption,
    ...placeOptions,
  },
  positionals: [1, 2],
  async run({ positionals, options }, io) {
    const ids = { pipelineId: optionalId(options.pipeline, 'pipeline'), destinationId: optionalId(options.destination, 'destination') };
    const baseUrl = optionalId(options['base-url'], 'base-url');
    const request: ReplaceRequest = {
      mode: options.force === true ? 'force' : 'replace',
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      ...(ids.pipelineId !== undefined ? { pipelineId: ids.pipelineId } : {}),
      ...(ids.destinationId !== undefined ? { destinationId: ids.destinationId } : {}),
      ...(options['allow-other-owner'] === true ? { allowOtherOwner: true } : {}),
      // Applied as soon as it is planned: the service stages the bytes the plan verified, reading each source file once.
      ...(options.yes === true ? { applyAtOnce: true } : {}),
    };
    const remote = remotePaths(positionals, ['DEST', 'SOURCE'].slice(0, positionals.length), options.agent);
    if (remote) {
      if (options.history !== undefined || options.workspace !== undefined)
        throw new CliError(
          'the history of a replace over ssh is kept on that host (the agent journals it there): drop --history and --workspace',
        );
      if (options['backup-dir'] !== undefined || options['no-backup'] !== undefined)
        throw new CliError('the backup of a replace over ssh is kept on that host, where its workspace says: drop --backup-dir');
      const [destination, source] = remote as [SshTarget, SshTarget | undefined];
      if (!source) throw new CliError('give SOURCE as ssh://… on the same host (the agent reads it there)');
      const { openHostDestination, withHostDoor } = await import('./hostDoor');
      return withHostDoor(options, io, async (door) => {
        const opened = await openHostDestination(door, destination, undefined);
        const steps = doorSteps(door, opened, planOf(door, opened, { ...request, source: source.path }), 'planReplace');
        return replaceFlow(steps, options, io);
      });
    }
    const places = cliPlaces(options, io);
    return withLocalDoor(places, async (door) => {
      const opened = await openLocalDestination(door, positionals[0] as string, places, io, 'replace');
      // A SOURCE typed here is read from here, not from the workspace's folder.
      const source = positionals[1] !== undefined ? { source: path.resolve(io.cwd, positionals[1]) } : {};
      const steps = doorSteps(door, opened, planOf(door, opened, { ...request, ...source }), 'planReplace', places.backupsOff);
      return replaceFlow(steps, options, io);
    });
  },
};
