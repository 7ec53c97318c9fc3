// `distributor-inspector backups list [DEST] | restore DEST BACKUP_ID [--yes] | prune [DEST]
// [--workspace W | --backup-dir DIR] [--json]`: the backups an apply kept (docs/backups.md), the
// restore of one (planned, shown, applied only with --yes or "yes" typed on a terminal; journaled in
// the history like any apply), and the prune to the newest `keep`. Asks the service through the one
// door (door.ts): the command's workspace's backups, else the user's own (their state folder).
// Exit 0 done (or nothing to do), 1 refused or failed, 2 input errors (an unknown backup id, a
// workspace file that does not load: each names the file and field).

import './startupChunk'; // what every command's start shares, as one chunk of the build
import type { BackupSummary, RestorePlan } from '../../shared/backupSchema';
import { applyAftermathText, type ApplyResult } from '../../shared/plan';
import { countsWords, planCountsSentence, restoreCounts } from '../../shared/planCounts';

import { CliError, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, type CliIo, type Command } from './command';
import { formatBytes } from './progressBar';
import { makeStyle, table, type Style } from './style';
import { printable } from './terminalText';
import type { Result } from '../../shared/result';
import {
  cliPlaces,
  noWorkspaceNote,
  openLocalDestination,
  openWorkspaceAt,
  placeOptions,
  withLocalDoor,
  type Door,
  type OpenedDestination,
} from './door';
import { agentOption, hostLabel, remoteNamed, valueOf } from './hostPaths';

/** A refusal that is the caller's input, not the disk's state: exit 2. */
const INPUT_CODES = new Set(['invalid_input', 'backups_off', 'backup_not_found']);

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
  return `${table([header, ...rows])}\n${style.dim(`${backups.length} backup${backups.length === 1 ? '' : 's'} in ${printable(folder)}`)}\n`;
}

function restorePlanText(plan: RestorePlan, style: Style): string {
  const lines = [
    `${style.bold('Restore')} of ${printable(plan.destinationPath)} from backup ${printable(plan.backupId)} (${plan.method === 'rename' ? 'moved back' : 'copied back, verified'})`,
    '',
    style.bold(`${planCountsSentence('restore', restoreCounts(plan))}.`),
    style.dim(`(${formatBytes(plan.summary.putBytes)} put back)`),
  ];
  for (const entry of plan.removes) lines.push(`  ${style.red('-')} ${printable(entry.path)}`);
  for (const name of plan.removeStaging) lines.push(`  ${style.red('-')} ${printable(name)}  ${style.dim('(staging folder)')}`);
  for (const entry of plan.puts) lines.push(`  ${style.green('+')} ${printable(entry.path)}`);
  if (plan.notKept.length > 0) lines.push(style.yellow(`Not kept, so not restored: ${plan.notKept.map(printable).join(', ')}`));
  return `${lines.join('\n')}\n`;
}

function restoreResultText(result: ApplyResult, plan: RestorePlan, style: Style): string {
  if (result.ok)
    return `${style.green('Restored')}: ${countsWords(restoreCounts(plan), 'done')}${result.stateWritten ? '; the old state is back' : ''} (${result.durationMs} ms).\n`;
  return `${style.red('Not completed')}: ${printable(result.error?.message ?? 'unknown error')} (${printable(result.error?.code ?? 'error')})\n${applyAftermathText(result)}\n`;
}

/** The plan and the apply of a restore, on this machine or on a host's agent; `host` names the host in the question. */
interface RestoreSteps {
  plan(): Promise<Result<RestorePlan, { code: string; message: string }>>;
  /** The destination id to type (a restore keeps no backup of what it removes: docs/confirmations.md). */
  confirmText(): string;
  /** Applies with the id as the operator typed it (the service's consent gate checks it). */
  apply(confirm: string): Promise<ApplyResult>;
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
  const where = `${printable(plan.destinationPath)}${steps.host !== undefined ? ` on host ${printable(steps.host)}` : ''}`;
  let typed = options.yes === true ? steps.confirmText() : undefined;
  if (typed === undefined && !json && io.ask && io.isTerminal)
    typed = (
      await io.ask(
        `${style.red('No backup is kept of what a restore removes.')} ${planCountsSentence('restore', restoreCounts(plan))} in ${where}, as it was before ${printable(plan.backupId)}. Type the destination id "${printable(steps.confirmText())}" to confirm: `,
      )
    ).trim();
  if (typed !== steps.confirmText()) {
    if (json) io.stdout(`${JSON.stringify({ plan }, null, 2)}\n`);
    else io.stdout(`\n${style.yellow('Not applied')}: nothing was changed. Run again with --yes to restore.\n`);
    return EXIT_OK;
  }
  const result = await steps.apply(typed);
  if (json) io.stdout(`${JSON.stringify({ plan, result }, null, 2)}\n`);
  else io.stdout(`\n${restoreResultText(result, plan, style)}`);
  if (result.historyError) io.stderr(`distributor-inspector backups restore: warning: ${printable(result.historyError.message)}\n`);
  if (result.backup?.warning) io.stderr(`distributor-inspector backups restore: warning: ${printable(result.backup.warning)}\n`);
  return result.ok ? EXIT_OK : EXIT_FINDINGS;
}

/**
 * `backups list|restore|prune` through a door: this machine's Session (the command's workspace, or
 * with none the user's state folder) or a host's agent (`ssh://HOST/DEST [--workspace ssh://HOST/W]`,
 * which keeps the backups where that workspace says, or for a DEST alone where `replace ssh://…` of it
 * kept them: the agent user's state folder there).
 */
async function backupsThroughDoor(
  verb: 'list' | 'restore' | 'prune',
  door: Door,
  opened: OpenedDestination | undefined,
  host: string | undefined,
  positionals: string[],
  options: Record<string, string | boolean | undefined>,
  io: CliIo,
  backupsOff?: string,
): Promise<number> {
  const onHost = host !== undefined ? ` on ${printable(host)}` : '';
  const request = opened ? { destination: opened.id } : {};
  const listed = valueOf(await door.call('listBackups', request), 'listBackups');
  const settings = listed.settings;
  if (!settings.enabled)
    throw new CliError(
      `backups ${verb}: backups are off${onHost} (${backupsOff ?? `${host !== undefined ? 'its' : 'the'} workspace file says "backups": "off"`}): there are none to ${verb}`,
    );
  const style = makeStyle(io.isTerminal, io.env);
  const folder = `${listed.target?.enabled ? listed.target.folder : settings.folder}${host !== undefined ? ` on ${host}` : ''}`;
  if (verb === 'list') {
    if (options.json === true) io.stdout(`${JSON.stringify({ settings, backups: listed.backups }, null, 2)}\n`);
    else io.stdout(listText(listed.backups, folder, style));
    return EXIT_OK;
  }
  if (verb === 'prune') {
    const pruned = valueOf(await door.call('pruneBackups', request), 'pruneBackups');
    if (options.json === true) io.stdout(`${JSON.stringify({ settings, ...pruned }, null, 2)}\n`);
    else io.stdout(pruneText(pruned, settings.keep, folder));
    return EXIT_OK;
  }
  const backupId = positionals[2];
  if (!opened || backupId === undefined) throw new CliError('backups restore needs DEST and BACKUP_ID');
  let planId = '';
  let confirm = '';
  return restoreFlow(
    {
      ...(host !== undefined ? { host } : {}),
      plan: async () => {
        const answer = await door.call('planRestore', { destination: opened.id, backup: backupId });
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
      confirmText: () => confirm,
      // The service checks its own plan again (the typed id, the stale-plan check) before it restores.
      apply: async (typed) => valueOf(await door.job('applyPlan', { planId, confirm: typed }), 'applyPlan'),
    },
    options,
    io,
  );
}

function pruneText(pruned: { removed: BackupSummary[]; kept: number }, keep: number, where: string): string {
  return pruned.removed.length === 0
    ? `Nothing to prune: at most ${keep} backup${keep === 1 ? '' : 's'} per destination in ${printable(where)}.\n`
    : `Removed ${pruned.removed.length} backup${pruned.removed.length === 1 ? '' : 's'} (${pruned.removed.map((backup) => printable(backup.id)).join(', ')}); kept ${pruned.kept}.\n`;
}

export const backupsCommand: Command = {
  name: 'backups',
  usage:
    'backups list [DEST] | backups restore DEST BACKUP_ID [--yes] | backups prune [DEST]  [--workspace W | --history FILE] [--backup-dir DIR] [--json] [--agent CMD] [--connect-timeout SECONDS]',
  summary: 'The backups applies kept (list, with sizes and times), restore one (undo an apply), prune to the newest `keep`',
  options: { json: { type: 'boolean' }, yes: { type: 'boolean' }, ...agentOption, ...placeOptions },
  positionals: [1, 3],
  async run({ positionals, options }, io) {
    const verb = positionals[0];
    if (verb !== 'list' && verb !== 'restore' && verb !== 'prune')
      throw new CliError(`backups: unknown subcommand "${printable(verb ?? '')}": use list, restore or prune`);
    if (verb !== 'restore' && positionals.length > 2) throw new CliError(`backups ${verb} takes at most one DEST`);
    const remote = remoteNamed({ DEST: positionals[1] }, options, `backups ${verb}`);
    if (remote) {
      const { DEST: dest, '--workspace': workspace } = remote;
      const first = (dest ?? workspace)!;
      const { openHost, openHostDestination, withHostDoor } = await import('./hostDoor');
      return withHostDoor(options, io, async (door) => {
        let opened: OpenedDestination | undefined;
        if (dest) opened = await openHostDestination(door, dest, workspace);
        else await openHost(door, workspace!, false);
        return backupsThroughDoor(verb, door, opened, hostLabel(first), positionals, options, io);
      });
    }
    const places = cliPlaces(options, io);
    return withLocalDoor(places, async (door) => {
      const dest = positionals[1];
      let opened: OpenedDestination | undefined;
      if (dest !== undefined) opened = await openLocalDestination(door, dest, places, io, `backups ${verb}`);
      else if (places.workspace) await openWorkspaceAt(door, places.workspace);
      else if (places.storage.backups === undefined) noWorkspaceNote(`backups ${verb}`, io);
      return backupsThroughDoor(verb, door, opened, undefined, positionals, options, io, places.backupsOff);
    });
  },
};
