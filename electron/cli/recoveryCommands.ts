// `distributor-inspector repair DEST [SOURCE] [--accept-partial] [--yes] [--json]` and
// `distributor-inspector discard-staging DEST [--yes] [--json]`: plan a repair of what drifted (or
// the removal of an interrupted apply's staging folder), print the plan, and apply it only with --yes
// or "yes" typed on a terminal, through replaceCommand.ts's one confirm/apply/print flow. Thin
// adapters over operations/: they hold no rules. What a repair overwrites, and the staging folder a
// discard removes, is kept in a backup as a replace's is (--workspace W or --backup-dir DIR;
// backupOptions.ts), undone by `backups restore`. DEST (and SOURCE, --workspace) may be ssh:// paths
// on one host: the host's agent plans and applies there, its backups and journal are the host's
// (remoteSession.ts). Exit 0 done (or nothing to do, or not applied), 1 refused or nothing possible,
// 2 input errors.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import path from 'node:path';
import { loadWorkspace } from '../engine/workspace';
import { applyReplacePlan } from '../operations/applyReplacePlan';
import { planDestinationDiscardStaging, planDestinationRepair } from '../operations/planDestinationRecovery';
import { backupOptions, cliBackups, workspaceIdOf } from './backupOptions';
import { CliError, type CliIo, type Command } from './command';
import { historyFileOf, historyOptions } from './historyFile';
import { agentOption, openRemoteDestination, remoteNamed, withAgent, workspaceArgs } from './remoteSession';
import { agentSteps, backupPlanText, replaceFlow, type ReplaceSteps } from './applyFlow';
import { printable } from './terminalText';

/** SOURCE as given, else the source `--workspace W` configures for DEST (the state does not record where its source is). */
async function repairSource(dest: string, source: string | undefined, options: Record<string, string | boolean | undefined>, io: CliIo) {
  if (source !== undefined) return path.resolve(io.cwd, source);
  const workspace = options.workspace;
  if (typeof workspace !== 'string' || workspace.trim() === '')
    throw new CliError(`give SOURCE (the bundle ${printable(dest)} was published from), or --workspace W whose file configures its source`);
  const load = await loadWorkspace(path.resolve(io.cwd, workspace));
  // historyFileOf has already refused a workspace that does not load.
  const entry = load.ok ? load.workspace.destinations.find((candidate) => path.resolve(candidate.path) === dest) : undefined;
  if (!entry) throw new CliError(`${printable(dest)} is not a destination of the workspace ${printable(workspace)}`);
  if (entry.source === undefined)
    throw new CliError(`the workspace ${printable(workspace)} configures no source for ${printable(entry.id)}: give SOURCE`);
  return entry.source;
}

/** Where the apply keeps what it removes (or why it keeps nothing), and DEST's workspace id for its backup and history record. */
async function recoveryKeep(destinationPath: string, options: Record<string, string | boolean | undefined>, io: CliIo) {
  const backups = await cliBackups(options, io);
  const destinationId = workspaceIdOf(backups.workspace, destinationPath);
  const id = destinationId !== undefined ? { destinationId } : {};
  return {
    backupText: () => backupPlanText(backups, destinationPath, destinationId),
    backup: { settings: backups.settings, ...id },
    history: (file: string) => ({ file, transport: 'cli' as const, ...id }),
  };
}

export const repairCommand: Command = {
  name: 'repair',
  usage: 'repair DEST [SOURCE] [--accept-partial] [--yes] [--json] [--agent CMD] [--workspace W | --history FILE] [--backup-dir DIR]',
  summary:
    'Plan rewriting only the outputs of DEST that drifted, from bytes proven from SOURCE (or the source --workspace configures); the state and extra files stay',
  options: {
    'accept-partial': { type: 'boolean' },
    yes: { type: 'boolean' },
    json: { type: 'boolean' },
    ...agentOption,
    ...historyOptions,
    ...backupOptions,
  },
  positionals: [1, 2],
  async run({ positionals, options }, io) {
    const remote = remoteNamed({ DEST: positionals[0], SOURCE: positionals[1] }, options, 'repair');
    if (remote) {
      const { DEST: dest, SOURCE: source, '--workspace': workspace } = remote;
      return withAgent(dest!, options, io, async (connection) => {
        const opened = await openRemoteDestination(connection, dest!, workspace, workspaceArgs(workspace));
        if (source === undefined && opened.source === undefined)
          throw new CliError(
            `give SOURCE as ssh://… on the same host (the bundle ${printable(dest!.path)} was published from), or --workspace ssh://… whose file configures its source`,
          );
        const plan = () => connection.call('planRepair', { destination: opened.id, ...(source ? { source: source.path } : {}) });
        return replaceFlow(agentSteps(connection, opened, plan, 'planRepair'), options, io, 'repair');
      });
    }
    const historyFile = await historyFileOf(options, io);
    const destinationPath = path.resolve(io.cwd, positionals[0] as string);
    const sourcePath = await repairSource(destinationPath, positionals[1], options, io);
    const keep = await recoveryKeep(destinationPath, options, io);
    const steps: ReplaceSteps = {
      plan: () => planDestinationRepair({ destinationPath, sourcePath }),
      backupText: keep.backupText,
      apply: async (planned, _includeNested, onProgress, acceptPartial) =>
        (await applyReplacePlan(planned.plan, { onProgress, acceptPartial, history: keep.history(historyFile), backup: keep.backup }))
          .result,
    };
    return replaceFlow(steps, options, io, 'repair');
  },
};

export const discardStagingCommand: Command = {
  name: 'discard-staging',
  usage: 'discard-staging DEST [--yes] [--json] [--agent CMD] [--workspace W | --history FILE] [--backup-dir DIR]',
  summary:
    'Plan removing the staging folder an interrupted apply left in DEST (says which publication it holds), kept in a backup; nothing else is touched',
  options: { yes: { type: 'boolean' }, json: { type: 'boolean' }, ...agentOption, ...historyOptions, ...backupOptions },
  positionals: [1, 1],
  async run({ positionals, options }, io) {
    const remote = remoteNamed({ DEST: positionals[0] }, options, 'discard-staging');
    if (remote) {
      const { DEST: dest, '--workspace': workspace } = remote;
      return withAgent(dest!, options, io, async (connection) => {
        const opened = await openRemoteDestination(connection, dest!, workspace, workspaceArgs(workspace));
        const plan = () => connection.call('planDiscardStaging', { destination: opened.id });
        return replaceFlow(agentSteps(connection, opened, plan, 'planDiscardStaging'), options, io, 'discard-staging');
      });
    }
    const historyFile = await historyFileOf(options, io);
    const destinationPath = path.resolve(io.cwd, positionals[0] as string);
    const keep = await recoveryKeep(destinationPath, options, io);
    const steps: ReplaceSteps = {
      plan: () => planDestinationDiscardStaging({ destinationPath }),
      backupText: keep.backupText,
      apply: async (planned, _includeNested, onProgress) =>
        (await applyReplacePlan(planned.plan, { onProgress, history: keep.history(historyFile), backup: keep.backup })).result,
    };
    return replaceFlow(steps, options, io, 'discard-staging');
  },
};
