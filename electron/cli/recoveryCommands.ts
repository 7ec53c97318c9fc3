// `distributor-inspector repair DEST [SOURCE] [--keep PATH]... [--accept-partial] [--yes] [--json]` and
// `distributor-inspector discard-staging DEST [--yes] [--json]`: plan a repair of what drifted (or
// the removal of an interrupted apply's staging folder), print the plan, and apply it only with --yes
// or "yes" typed on a terminal, through applyFlow.ts's one confirm/apply/print flow. They ask the
// service through the one door (door.ts) and hold no rules. In the command's workspace DEST takes
// its configured source, backups folder and journal, as in the app; without one, the user's own.
// What a repair overwrites, and the staging folder a discard removes, is kept in a backup as a
// replace's is, undone by `backups restore`. DEST (and SOURCE, --workspace) may be ssh:// paths on one
// host: the host's agent plans and applies there, its backups and journal are the host's
// (hostDoor.ts). Exit 0 done (or nothing to do, or not applied), 1 refused or nothing possible,
// 2 input errors.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import path from 'node:path';
import { doorSteps, replaceFlow } from './applyFlow';
import { CliError, type Command } from './command';
import { cliPlaces, openLocalDestination, placeOptions, withLocalDoor } from './door';
import { agentOption, remoteNamed } from './hostPaths';
import { printable } from './terminalText';

export const repairCommand: Command = {
  name: 'repair',
  usage:
    'repair DEST [SOURCE] [--keep PATH]... [--accept-partial] [--yes] [--json] [--agent CMD] [--connect-timeout SECONDS] [--workspace W | --history FILE] [--backup-dir DIR | --no-backup]',
  summary:
    'Plan rewriting only the outputs of DEST that drifted, from bytes proven from SOURCE (or the source its workspace configures); the state and extra files stay, and each --keep PATH (a drifted output, say an intentional hotfix) is left as it is and stays drifted',
  options: {
    keep: { type: 'string', multiple: true },
    'accept-partial': { type: 'boolean' },
    yes: { type: 'boolean' },
    json: { type: 'boolean' },
    ...agentOption,
    ...placeOptions,
  },
  positionals: [1, 2],
  async run({ positionals, options, lists }, io) {
    // The outputs to leave as they are: the service refuses by name one it would not rewrite.
    const keep = lists?.keep !== undefined && lists.keep.length > 0 ? { keep: lists.keep } : {};
    const remote = remoteNamed({ DEST: positionals[0], SOURCE: positionals[1] }, options, 'repair');
    if (remote) {
      const { DEST: dest, SOURCE: source, '--workspace': workspace } = remote;
      const { openHostDestination, withHostDoor } = await import('./hostDoor');
      return withHostDoor(options, io, async (door) => {
        const opened = await openHostDestination(door, dest!, workspace);
        if (source === undefined && opened.source === undefined)
          throw new CliError(
            `give SOURCE as ssh://… on the same host (the bundle ${printable(dest!.path)} was published from), or --workspace ssh://… whose file configures its source`,
          );
        const plan = () => door.call('planRepair', { destination: opened.id, ...(source ? { source: source.path } : {}), ...keep });
        return replaceFlow(doorSteps(door, opened, plan, 'planRepair'), options, io, 'repair');
      });
    }
    const places = cliPlaces(options, io);
    return withLocalDoor(places, async (door) => {
      const opened = await openLocalDestination(door, positionals[0] as string, places, io, 'repair');
      const source = positionals[1] !== undefined ? path.resolve(io.cwd, positionals[1]) : undefined;
      if (source === undefined && opened.source === undefined)
        throw new CliError(
          `give SOURCE (the bundle ${printable(positionals[0] as string)} was published from), or a workspace whose file configures its source`,
        );
      const plan = () => door.call('planRepair', { destination: opened.id, ...(source !== undefined ? { source } : {}), ...keep });
      return replaceFlow(doorSteps(door, opened, plan, 'planRepair', places.backupsOff), options, io, 'repair');
    });
  },
};

export const discardStagingCommand: Command = {
  name: 'discard-staging',
  usage:
    'discard-staging DEST [--yes] [--json] [--agent CMD] [--connect-timeout SECONDS] [--workspace W | --history FILE] [--backup-dir DIR | --no-backup]',
  summary:
    'Plan removing the staging folder an interrupted apply left in DEST (says which publication it holds), kept in a backup; nothing else is touched',
  options: { yes: { type: 'boolean' }, json: { type: 'boolean' }, ...agentOption, ...placeOptions },
  positionals: [1, 1],
  async run({ positionals, options }, io) {
    const remote = remoteNamed({ DEST: positionals[0] }, options, 'discard-staging');
    if (remote) {
      const { DEST: dest, '--workspace': workspace } = remote;
      const { openHostDestination, withHostDoor } = await import('./hostDoor');
      return withHostDoor(options, io, async (door) => {
        const opened = await openHostDestination(door, dest!, workspace);
        const plan = () => door.call('planDiscardStaging', { destination: opened.id });
        return replaceFlow(doorSteps(door, opened, plan, 'planDiscardStaging'), options, io, 'discard-staging');
      });
    }
    const places = cliPlaces(options, io);
    return withLocalDoor(places, async (door) => {
      const opened = await openLocalDestination(door, positionals[0] as string, places, io, 'discard-staging');
      const plan = () => door.call('planDiscardStaging', { destination: opened.id });
      return replaceFlow(doorSteps(door, opened, plan, 'planDiscardStaging', places.backupsOff), options, io, 'discard-staging');
    });
  },
};
