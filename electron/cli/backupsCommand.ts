// `distributor-inspector backups list [DEST] | restore DEST BACKUP_ID [--yes] | prune [DEST]
// [--workspace W | --backup-dir DIR] [--json]`: the backups an apply kept (docs/backups.md), the
// restore of one (planned, shown, applied only with --yes or "yes" typed on a terminal; journaled in
// the history like any apply), and the prune to the newest `keep`. A thin adapter over backup/ and
// operations/. Exit 0 done (or nothing to do), 1 refused or failed, 2 input errors (no backups folder
// named, an unknown backup id, a workspace file that does not load: each names the file and field).

import './startupChunk'; // what every command's start shares, as one chunk of the build
import path from 'node:path';
import type { BackupSettings, BackupSummary, RestorePlan } from '../../shared/backupSchema';
import { applyAftermathText, type ApplyResult } from '../../shared/plan';
import { destinationBackupsFolder } from '../backup/backupLocation';
import { listBackups, pruneBackups } from '../backup/backupStore';
import { planBackupRestore, applyBackupRestore } from '../operations/restoreBackup';
import { backupOptions, cliBackups, workspaceIdOf, type CliBackups } from './backupOptions';
import { CliError, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, type CliIo, type Command } from './command';
import { historyFileOf } from './historyFile';
import { formatBytes } from './progressBar';
import { makeStyle, table, type Style } from './style';
import { printable } from './terminalText';
import type { Result } from '../../shared/result';
import type { SshTarget } from '../../shared/sshUrl';
import type { RemoteDestination } from './applyFlow';
import { agentOption, hostLabel, openRemoteDestination, remoteNamed, valueOf, withAgent, workspaceArgs } from './remoteSession';

/** A refusal that is the caller's input, not the disk's state: exit 2. */
const INPUT_CODES = new Set(['invalid_input', 'backups_off', 'backup_not_found']);

/** DEST as the backups name it: a path, or a destination id of the workspace. */
function destinationOf(backups: CliBackups, given: string, io: CliIo): { id?: string; path: string } {
  const byId = backups.workspace?.destinations.find((destination) => destination.id === given);
  if (byId) return { id: byId.id, path: byId.path };
  const destinationPath = path.resolve(io.cwd, given);
  const id = workspaceIdOf(backups.workspace, destinationPath);
  return id !== undefined ? { id, path: destinationPath } : { path: destinationPath };
}

function enabledSettings(backups: CliBackups, verb: string): Extract<BackupSettings, { enabled: true }> {
  if (backups.settings.enabled) return backups.settings;
  if (backups.workspace) throw new CliError(`backups ${verb}: backups are off (${backups.offReason ?? 'off'}): there are none to ${verb}`);
  throw new CliError(`backups ${verb} needs --workspace W or --backup-dir DIR: where the backups are (a bare DEST names no workspace)`);
}

function listText(backups: BackupSummary[], folder: string, style: Style): string {
  if (backups.length === 0) return `No backups in ${printable(folder)}.\n`;
  const header = ['ID', 'DESTINATION', 'ACTION', 'OUTCOME', 'SIZE', 'ENTRIES', 'METHOD', 'RESTORED'].map((cell) => style.bold(cell));
  const rows = backups.map((backup) =>
    backup.problem !== undefined
      ? [printable(backup.id), '-', '-', style.red('unreadable'), '-', '-', '-', printable(backup.problem)]
      : [
          printable(backup.id),
          printable(backup.destination.id ?? backup.destination.path),
          printable(backup.action),
          backup.outcome ?? style.yellow('interrupted'),
          formatBytes(backup.sizeBytes),
          String(backup.entryCount),
          backup.method,
          backup.restoredAt !== undefined ? printable(backup.restoredAt) : '-',
        ],
  );
  return `${table([header, ...rows])}\n${style.dim(`${backups.length} backup(s) in ${printable(folder)}`)}\n`;
}

function restorePlanText(plan: RestorePlan, style: Style): string {
  const lines = [
    `${style.bold('Restore')} of ${printable(plan.destinationPath)} from backup ${printable(plan.backupId)} (${plan.method === 'rename' ? 'moved back' : 'copied back, verified'})`,
    '',
    style.bold(`${plan.summary.removeCount} remove, ${plan.summary.putCount} put back (${formatBytes(plan.summary.putBytes)})`),
  ];
  for (const entry of plan.removes) lines.push(`  ${style.red('-')} ${printable(entry.path)}`);
  for (const name of plan.removeStaging) lines.push(`  ${style.red('-')} ${printable(name)}  ${style.dim('(staging folder)')}`);
  for (const entry of plan.puts) lines.push(`  ${style.green('+')} ${printable(entry.path)}`);
  if (plan.notKept.length > 0) lines.push(style.yellow(`Not kept, so not restored: ${plan.notKept.map(printable).join(', ')}`));
  return `${lines.join('\n')}\n`;
}

function restoreResultText(result: ApplyResult, style: Style): string {
  if (result.ok)
    return `${style.green('Restored')}: removed ${result.deleted.length}, put back ${result.written.length}${result.stateWritten ? ', the old state is back' : ''} (${result.durationMs} ms).\n`;
  return `${style.red('Not completed')}: ${printable(result.error?.message ?? 'unknown error')} (${printable(result.error?.code ?? 'error')})\n${applyAftermathText(result)}\n`;
}

async function restore(backups: CliBackups, positionals: string[], options: Record<string, string | boolean | undefined>, io: CliIo) {
  const [, dest, backupId] = positionals;
  if (dest === undefined || backupId === undefined) throw new CliError('backups restore needs DEST and BACKUP_ID');
  const settings = enabledSettings(backups, 'restore');
  const destination = destinationOf(backups, dest, io);
  return restoreFlow(
    {
      plan: async () => {
        const planned = await planBackupRestore(settings, destination, backupId);
        if (planned.ok || !(planned.error.code === 'backup_unreadable' && planned.error.message.includes('is missing'))) return planned;
        return {
          ok: false,
          error: {
            code: 'backup_not_found',
            message: `${path.join(destinationBackupsFolder(settings.folder, destination), backupId)}: no such backup (backups list shows them)`,
          },
        };
      },
      apply: async (plan) => {
        const historyFile = await historyFileOf(options, io);
        const { result } = await applyBackupRestore(plan, {
          history: { file: historyFile, transport: 'cli', ...(destination.id !== undefined ? { destinationId: destination.id } : {}) },
        });
        return result;
      },
    },
    options,
    io,
  );
}

/** The plan and the apply of a restore, on this machine or on a host's agent; `host` names the host in the question. */
interface RestoreSteps {
  plan(): Promise<Result<RestorePlan, { code: string; message: string }>>;
  apply(plan: RestorePlan): Promise<ApplyResult>;
  host?: string;
}

/** Prints the plan, asks (or takes --yes), restores, prints the result: exit 0 done (or not applied), 1 refused or failed, 2 input. */
async function restoreFlow(steps: RestoreSteps, options: Record<string, string | boolean | undefined>, io: CliIo): Promise<number> {
  const style = makeStyle(io.isTerminal, io.env);
  const json = options.json === true;
  const planned = await steps.plan();
  if (!planned.ok) {
    const refusal = planned.error;
    if (json) io.stdout(`${JSON.stringify({ refusal }, null, 2)}\n`);
    else io.stderr(`distributor-inspector backups restore: refused: ${printable(refusal.message)} (${refusal.code})\n`);
    return INPUT_CODES.has(refusal.code) ? EXIT_INPUT : EXIT_FINDINGS;
  }
  const plan = planned.value;
  if (!json) io.stdout(restorePlanText(plan, style));
  if (plan.summary.removeCount === 0 && plan.summary.putCount === 0) {
    if (json) io.stdout(`${JSON.stringify({ plan }, null, 2)}\n`);
    else io.stdout('Nothing to do: the destination is already as the backup keeps it.\n');
    return EXIT_OK;
  }
  let apply = options.yes === true;
  const where = `${printable(plan.destinationPath)}${steps.host !== undefined ? ` on host ${printable(steps.host)}` : ''}`;
  if (!apply && !json && io.ask && io.isTerminal)
    apply =
      (await io.ask(`Put ${where} back as it was before ${printable(plan.backupId)}? Type "yes" to restore: `)).trim().toLowerCase() ===
      'yes';
  if (!apply) {
    if (json) io.stdout(`${JSON.stringify({ plan }, null, 2)}\n`);
    else io.stdout(`\n${style.yellow('Not applied')}: nothing was changed. Run again with --yes to restore.\n`);
    return EXIT_OK;
  }
  const result = await steps.apply(plan);
  if (json) io.stdout(`${JSON.stringify({ plan, result }, null, 2)}\n`);
  else io.stdout(`\n${restoreResultText(result, style)}`);
  if (result.historyError) io.stderr(`distributor-inspector backups restore: warning: ${printable(result.historyError.message)}\n`);
  if (result.backup?.warning) io.stderr(`distributor-inspector backups restore: warning: ${printable(result.backup.warning)}\n`);
  return result.ok ? EXIT_OK : EXIT_FINDINGS;
}

/**
 * `backups list|restore|prune ssh://HOST/DEST [--workspace ssh://HOST/W]` (or only `--workspace
 * ssh://…`): asked of the host's agent, which keeps the backups where that workspace says (or, for a
 * DEST alone, where `replace ssh://…` of it kept them: the agent user's state folder there).
 */
async function remoteBackups(
  verb: 'list' | 'restore' | 'prune',
  remote: Record<string, SshTarget>,
  positionals: string[],
  options: Record<string, string | boolean | undefined>,
  io: CliIo,
): Promise<number> {
  const { DEST: dest, '--workspace': workspace } = remote;
  const first = (dest ?? workspace)!;
  return withAgent(first, options, io, async (connection) => {
    let opened: RemoteDestination | undefined;
    if (dest) opened = await openRemoteDestination(connection, dest, workspace, workspaceArgs(workspace));
    else valueOf(await connection.call('openWorkspace', { path: workspace!.path }), 'openWorkspace');
    const host = hostLabel(first);
    const request = opened ? { destination: opened.id } : {};
    const listed = valueOf(await connection.call('listBackups', request), 'listBackups');
    const settings = listed.settings;
    if (!settings.enabled)
      throw new CliError(`backups ${verb}: backups are off on ${printable(host)} (its workspace file says "backups": "off")`);
    const style = makeStyle(io.isTerminal, io.env);
    const folder = listed.target?.enabled ? listed.target.folder : settings.folder;
    if (verb === 'list') {
      if (options.json === true) io.stdout(`${JSON.stringify({ settings, backups: listed.backups }, null, 2)}\n`);
      else io.stdout(listText(listed.backups, `${folder} on ${host}`, style));
      return EXIT_OK;
    }
    if (verb === 'prune') {
      const pruned = valueOf(await connection.call('pruneBackups', request), 'pruneBackups');
      if (options.json === true) io.stdout(`${JSON.stringify({ settings, ...pruned }, null, 2)}\n`);
      else io.stdout(pruneText(pruned, settings.keep, `${folder} on ${host}`));
      return EXIT_OK;
    }
    const backupId = positionals[2];
    if (!opened || backupId === undefined) throw new CliError('backups restore needs DEST and BACKUP_ID');
    let planId = '';
    let confirm = '';
    return restoreFlow(
      {
        host,
        plan: async () => {
          const answer = await connection.call('planRestore', { destination: opened.id, backup: backupId });
          if (!answer.ok) {
            const refusal = (answer.error.details as { refusal?: { code: string; message: string } } | undefined)?.refusal;
            if (refusal) return { ok: false, error: refusal };
            if (answer.error.code === 'not_found') return { ok: false, error: { code: 'backup_not_found', message: answer.error.message } };
          }
          const value = valueOf(answer, 'planRestore');
          planId = value.planId;
          confirm = value.confirmText;
          return { ok: true, value: value.plan };
        },
        // The agent checks its own plan again (the typed id, the stale-plan check) before it restores.
        apply: async () => valueOf(await connection.job('applyPlan', { planId, confirm }), 'applyPlan'),
      },
      options,
      io,
    );
  });
}

function pruneText(pruned: { removed: BackupSummary[]; kept: number }, keep: number, where: string): string {
  return pruned.removed.length === 0
    ? `Nothing to prune: at most ${keep} backup(s) per destination in ${printable(where)}.\n`
    : `Removed ${pruned.removed.length} backup(s) (${pruned.removed.map((backup) => printable(backup.id)).join(', ')}); kept ${pruned.kept}.\n`;
}

export const backupsCommand: Command = {
  name: 'backups',
  usage:
    'backups list [DEST] | backups restore DEST BACKUP_ID [--yes] | backups prune [DEST]  [--workspace W | --backup-dir DIR] [--history FILE] [--json] [--agent CMD]',
  summary: 'The backups applies kept (list, with sizes and times), restore one (undo an apply), prune to the newest `keep`',
  options: { json: { type: 'boolean' }, yes: { type: 'boolean' }, history: { type: 'string' }, ...agentOption, ...backupOptions },
  positionals: [1, 3],
  async run({ positionals, options }, io) {
    const verb = positionals[0];
    if (verb !== 'list' && verb !== 'restore' && verb !== 'prune')
      throw new CliError(`backups: unknown subcommand "${printable(verb ?? '')}": use list, restore or prune`);
    if (verb !== 'restore' && positionals.length > 2) throw new CliError(`backups ${verb} takes at most one DEST`);
    const remote = remoteNamed({ DEST: positionals[1] }, options, `backups ${verb}`);
    if (remote) return remoteBackups(verb, remote, positionals, options, io);
    const backups = await cliBackups(options, io);
    if (verb === 'restore') return restore(backups, positionals, options, io);
    const settings = enabledSettings(backups, verb);
    const dest = positionals[1];
    const folder = dest === undefined ? undefined : destinationBackupsFolder(settings.folder, destinationOf(backups, dest, io));
    const style = makeStyle(io.isTerminal, io.env);
    if (verb === 'list') {
      const list = await listBackups(settings, folder);
      if (options.json === true) io.stdout(`${JSON.stringify({ settings, backups: list }, null, 2)}\n`);
      else io.stdout(listText(list, folder ?? settings.folder, style));
      return EXIT_OK;
    }
    const pruned = await pruneBackups(settings, folder);
    if (options.json === true) io.stdout(`${JSON.stringify({ settings, ...pruned }, null, 2)}\n`);
    else io.stdout(pruneText(pruned, settings.keep, folder ?? settings.folder));
    return EXIT_OK;
  },
};
