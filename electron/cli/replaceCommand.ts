// `distributor-inspector replace DEST SOURCE [--pipeline ID] [--destination ID] [--base-url URL]
// [--force] [--include-nested] [--allow-other-owner] [--yes] [--json]`: plans a normal (or forced) replace, prints the plan, and applies it
// only with --yes or a confirmation typed on a terminal (force: the destination id). A thin adapter over
// operations/ (plan, its confirmation text, apply): it holds no rules. Without --yes and a confirmation it never
// changes anything. Exit 0 done (or dry run), 1 refused or failed, 2 input errors.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import { agentSteps, backupPlanText, replaceFlow, type ReplaceSteps } from './applyFlow';
import path from 'node:path';

import { applyReplacePlan } from '../operations/applyReplacePlan';
import type { VerifiedOutputs } from '../replace/publish';
import { historyFileOf, historyOptions } from './historyFile';
import { backupOptions, cliBackups, workspaceIdOf } from './backupOptions';

import { planDestinationReplace } from '../operations/planDestinationReplace';
import { CliError, type Command } from './command';

import type { SshTarget } from '../../shared/sshUrl';

import { agentOption, openRemoteDestination, remotePaths, withAgent } from './remoteSession';

function optionalId(value: string | boolean | undefined, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new CliError(`--${option} needs a non-empty value`);
  return value;
}

export const replaceCommand: Command = {
  name: 'replace',
  usage:
    'replace DEST SOURCE [--pipeline ID] [--destination ID] [--base-url URL] [--force] [--include-nested] [--allow-other-owner] [--yes] [--json] [--agent CMD] [--workspace W | --history FILE] [--backup-dir DIR]',
  summary: 'Plan a replace of DEST with SOURCE (--force: delete everything first); apply only with --yes or a typed confirmation',
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
    ...historyOptions,
    ...backupOptions,
  },
  positionals: [2, 2],
  async run({ positionals, options }, io) {
    const request = {
      mode: options.force === true ? ('force' as const) : ('replace' as const),
      configured: { pipelineId: optionalId(options.pipeline, 'pipeline'), destinationId: optionalId(options.destination, 'destination') },
      baseUrl: optionalId(options['base-url'], 'base-url'),
      allowOtherOwner: options['allow-other-owner'] === true,
    };
    const remote = remotePaths(positionals, ['DEST', 'SOURCE'], options.agent);
    if (remote) {
      if (options.history !== undefined || options.workspace !== undefined)
        throw new CliError(
          'the history of a replace over ssh is kept on that host (the agent journals it there): drop --history and --workspace',
        );
      if (options['backup-dir'] !== undefined)
        throw new CliError('the backup of a replace over ssh is kept on that host, where its workspace says: drop --backup-dir');
      const [destination, source] = remote as [SshTarget, SshTarget];
      return withAgent(destination, options, io, async (connection) => {
        const opened = await openRemoteDestination(connection, destination, undefined);
        const plan = () =>
          connection.call('planReplace', {
            destination: opened.id,
            mode: request.mode,
            source: source.path,
            ...(request.baseUrl !== undefined ? { baseUrl: request.baseUrl } : {}),
            ...(request.configured.pipelineId !== undefined ? { pipelineId: request.configured.pipelineId } : {}),
            ...(request.configured.destinationId !== undefined ? { destinationId: request.configured.destinationId } : {}),
            ...(request.allowOtherOwner ? { allowOtherOwner: true } : {}),
          });
        return replaceFlow(agentSteps(connection, opened, plan, 'planReplace'), options, io);
      });
    }
    const historyFile = await historyFileOf(options, io);
    const destinationPath = path.resolve(io.cwd, positionals[0] as string);
    const backups = await cliBackups(options, io);
    const destinationId = workspaceIdOf(backups.workspace, destinationPath);
    // With --yes the apply follows the plan at once: it stages the bytes the plan just verified (each
    // hashed again against the plan) instead of reading the source a second time.
    const verified: VerifiedOutputs | undefined = options.yes === true ? new Map() : undefined;
    const steps: ReplaceSteps = {
      plan: () =>
        planDestinationReplace({
          destinationPath,
          sourcePath: path.resolve(io.cwd, positionals[1] as string),
          ...request,
          ...(verified ? { keepVerified: verified } : {}),
        }),
      backupText: () => backupPlanText(backups, destinationPath, destinationId),
      apply: async (_planned, includeNested, onProgress) =>
        (
          await applyReplacePlan(_planned.plan, {
            includeNested,
            onProgress,
            history: { file: historyFile, transport: 'cli', ...(destinationId !== undefined ? { destinationId } : {}) },
            backup: { settings: backups.settings, ...(destinationId !== undefined ? { destinationId } : {}) },
            ...(verified ? { verified } : {}),
          })
        ).result,
    };
    return replaceFlow(steps, options, io);
  },
};
