// The text and the --json of `scan` (scanCommand.ts): the table, the errors and drifts under it, the
// hosts, the tally. Layout only: the rows come from the service's scan (here or on a host).

import './startupChunk'; // what every command's start shares, as one chunk of the build
import { countIssues, formatIssuePath, type Issue } from '../../shared/issues';
import type { VerifyReport } from '../../shared/verifyReport';
import type { SyncStatus } from '../../shared/syncStatus';
import { SYNC_LABELS } from '../../shared/syncWords';
import { rowBodyJson } from '../../shared/scanRowText';
import { type LoadedWorkspace, type ScannedDestination } from '../service/workspaceScan';
import { table, type Style } from './style';
import { verifyLines } from './verifyText';
import { printable } from './terminalText';
import type { Problem } from '../../shared/result';
import { plural } from '../../shared/plural';

export interface ScanOutcome {
  /** The folder or file as named on the command line (absolute), when it is not the workspace file itself. */
  named?: string;
  workspace: LoadedWorkspace;
  warnings: Issue[];
  rows: ScannedDestination[];
  /** By row index; only managed destinations are verified. */
  verify?: (VerifyReport | undefined)[];
  /** By row index: when each verify was taken (its read began); a result printed is fresh as of then. */
  verifiedAt?: (string | undefined)[];
  /** By row index: the workspace host a row was read on (absent: this machine). */
  rowHosts?: (string | undefined)[];
  /** The workspace's hosts, in its order: what each answered, or why it did not. */
  hosts?: HostScan[];
  /** By row index: the row's part of the --json document, printed as it came (scanJsonText.ts). */
  rendered?: (string | undefined)[];
  /**
   * By row index, the verify's status where its report is not kept: in place of `verify` once each
   * report is in its row's `rendered` text, or beside a `verify` that keeps only the drifted reports
   * (the ones the table lists). The counts, the VERIFY column and the exit code read it.
   */
  verifyStatus?: (VerifyReport['status'] | undefined)[];
}

/** Each row's verify status, from its report or from `verifyStatus`; undefined when nothing was verified. */
export function verifyStatuses(outcome: ScanOutcome): (VerifyReport['status'] | undefined)[] | undefined {
  return outcome.verifyStatus ?? outcome.verify?.map((report) => report?.status);
}

export interface HostScan {
  name: string;
  url: string;
  destinations: number;
  failure?: Problem;
}

export function issueLine(file: string, issue: Issue): string {
  return `${printable(file)}: ${printable(formatIssuePath(issue.path))}: ${printable(issue.message)}`;
}

function counts(outcome: ScanOutcome) {
  const byStatus = { total: outcome.rows.length, managed: 0, unmanaged: 0, empty: 0, invalid: 0 };
  for (const row of outcome.rows) byStatus[row.summary.status] += 1;
  const statuses = verifyStatuses(outcome);
  if (!statuses) return byStatus;
  return {
    ...byStatus,
    intact: statuses.filter((status) => status === 'intact').length,
    drifted: statuses.filter((status) => status === 'drifted').length,
  };
}

export function jsonDocument(outcome: ScanOutcome) {
  return { ...documentHead(outcome), destinations: outcome.rows.map((row, index) => destinationJson(outcome, row, index)) };
}

/** The document's fields before its `destinations`, which come last. */
export function documentHead(outcome: ScanOutcome) {
  const { kind, root, file } = outcome.workspace;
  return {
    workspace: { kind, root, ...(file ? { file } : {}), issues: outcome.warnings },
    counts: counts(outcome),
    ...(outcome.hosts
      ? {
          hosts: outcome.hosts.map((host) => ({
            name: host.name,
            url: host.url,
            state: host.failure ? 'failed' : 'scanned',
            destinations: host.destinations,
            ...(host.failure ? { error: host.failure } : {}),
          })),
        }
      : {}),
  };
}

/** One row of the document's `destinations`; `outcome` gives its verify, verify time and host by index. */
export function destinationJson(outcome: Pick<ScanOutcome, 'verify' | 'verifiedAt' | 'rowHosts'>, row: ScannedDestination, index: number) {
  const report = outcome.verify?.[index];
  const host = outcome.rowHosts?.[index];
  return {
    id: row.destination.id,
    ...(host !== undefined ? { host } : {}),
    ...rowBodyJson(row.inspection, row.summary, report ? { report, verifiedAt: outcome.verifiedAt?.[index] } : undefined),
    ...(row.sync ? { sync: row.sync } : {}),
  };
}

function statusCell(status: string, style: Style): string {
  if (status === 'managed' || status === 'intact') return style.green(status);
  if (status === 'invalid' || status === 'drifted') return style.red(status);
  if (status === 'unmanaged') return style.yellow(status);
  return style.dim(status);
}

/** The sync axis (shared/syncStatus.ts): its kind, and a conflict's reason. */
function syncCell(sync: SyncStatus | undefined, style: Style): string {
  if (!sync) return style.dim('-');
  const words = `${SYNC_LABELS[sync.kind]}${sync.reason ? ` (${sync.reason})` : ''}`;
  if (sync.kind === 'conflict' || sync.kind === 'source_unreadable') return style.red(words);
  if (sync.kind === 'publish_waiting' || sync.kind === 'unmanaged') return style.yellow(words);
  return sync.kind === 'up_to_date' ? style.green(words) : style.dim(words);
}

/** Which workspace was read: a folder named on the command line may have been read as the workspace file it holds. */
function workspaceLine(outcome: ScanOutcome, style: Style): string {
  const { file, root } = outcome.workspace;
  if (file === undefined) return `${style.dim('Workspace folder:')} ${printable(root)}`;
  const found =
    outcome.named !== undefined && file !== outcome.named ? style.dim(` (the workspace file in ${printable(outcome.named)})`) : '';
  return `${style.dim('Workspace file:')} ${printable(file)}${found}`;
}

export function humanText(outcome: ScanOutcome, style: Style): string {
  const statuses = verifyStatuses(outcome);
  const verifying = statuses !== undefined;
  const header = ['STATUS', ...(verifying ? ['VERIFY'] : []), 'ID', 'OUTPUTS', 'ISSUES', 'PUBLISHED', 'SYNC'];
  const rows = outcome.rows.map((row, index) => {
    const { summary } = row;
    const issues =
      summary.errorCount + summary.warningCount === 0
        ? '-'
        : `${plural(summary.errorCount, 'error')}, ${plural(summary.warningCount, 'warning')}`;
    const verified = statuses?.[index];
    return [
      statusCell(summary.status, style),
      ...(verifying ? [verified ? statusCell(verified, style) : style.dim('-')] : []),
      printable(row.destination.id),
      String(summary.outputCount),
      issues,
      printable(summary.published_at ?? '-'),
      syncCell(row.sync, style),
    ];
  });
  const lines = [workspaceLine(outcome, style), '', table([header.map((cell) => style.bold(cell)), ...rows])];

  outcome.rows.forEach((row, index) => {
    const report = outcome.verify?.[index];
    const errors = row.inspection.issues.filter((issue) => issue.severity === 'error');
    if (errors.length === 0 && report?.status !== 'drifted') return;
    lines.push('', `${style.bold(printable(row.destination.id))} ${style.dim(printable(row.inspection.path))}`);
    for (const issue of errors.slice(0, 10))
      lines.push(`  ${style.red('error')} ${printable(formatIssuePath(issue.path))}: ${printable(issue.message)}`);
    // Counted, not listed: a summary issue among the errors stands for many.
    const notShown = countIssues(errors).errors - countIssues(errors.slice(0, 10)).errors;
    if (notShown > 0) lines.push(`  … and ${plural(notShown, 'more error', 'more errors')}; inspect the destination for all of them`);
    if (report?.status === 'drifted') lines.push(...verifyLines(report, style).map((line) => `  ${line}`));
  });

  if (outcome.hosts?.length) {
    lines.push('', style.bold('HOSTS'));
    for (const host of outcome.hosts) {
      const state = host.failure
        ? style.red(`failed: ${printable(host.failure.message)} (${host.failure.code})`)
        : plural(host.destinations, 'destination');
      lines.push(`  ${printable(host.name)} ${style.dim(printable(host.url))}: ${state}`);
    }
  }

  const tally = counts(outcome);
  const verified = 'intact' in tally ? `; verified ${tally.intact + tally.drifted}: ${tally.intact} intact, ${tally.drifted} drifted` : '';
  lines.push(
    '',
    `${plural(tally.total, 'destination')}: ${tally.managed} managed, ${tally.unmanaged} unmanaged, ${tally.empty} empty, ${tally.invalid} invalid${verified}`,
  );
  return lines.join('\n') + '\n';
}
