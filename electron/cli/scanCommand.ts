// `distributor-inspector scan WORKSPACE [--verify] [--json]`: every destination's status, and with
// --verify every output checked against its recorded hash. A thin shell over engine/scan and engine/verify.
// Exit 1 when anything is invalid or drifted (a CI gate, like `kubectl diff`); 2 on a bad workspace.

import path from 'node:path';
import { groupDigits } from '../../shared/issueCap';
import { countIssues, formatIssuePath, type Issue } from '../../shared/issues';
import type { VerifyReport } from '../../shared/verifyReport';
import { HashPool } from '../engine/hashPool';
import { isFinding, scanWorkspace, type ScannedDestination } from '../engine/scan';
import { loadWorkspace, type LoadedWorkspace } from '../engine/workspace';
import { EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, type CliIo, type Command } from './command';
import { createProgressBar } from './progressBar';
import { makeStyle, table, type Style } from './style';
import { verifyLines } from './verifyText';
import { printable } from './terminalText';
import type { ScanEntry } from '../../shared/api';
import type { SshTarget } from '../../shared/sshUrl';
import { agentOption, remotePaths, valueOf, withAgent, type CommandOptions } from './remoteSession';

interface ScanOutcome {
  /** The folder or file as named on the command line (absolute). */
  named: string;
  workspace: LoadedWorkspace;
  warnings: Issue[];
  rows: ScannedDestination[];
  /** By row index; only managed destinations are verified. */
  verify?: (VerifyReport | undefined)[];
}

function issueLine(file: string, issue: Issue): string {
  return `${printable(file)}: ${printable(formatIssuePath(issue.path))}: ${printable(issue.message)}`;
}

async function runScan(target: string, verify: boolean, io: CliIo): Promise<ScanOutcome | { inputIssues: string[] }> {
  const named = path.resolve(io.cwd, target);
  const load = await loadWorkspace(named);
  if (!load.ok) return { inputIssues: load.issues.map((issue) => issueLine(load.file, issue)) };
  const { workspace } = load;
  // The bar goes to stderr, so it is drawn when stderr is a terminal, whatever stdout is.
  const bar = createProgressBar(io.stderr, Boolean(process.stderr.isTTY) && io.env.TERM !== 'dumb');
  const pool = new HashPool();
  try {
    // With --verify each worker verifies a managed destination right after reading its state: one
    // pass, against the state as it is now, and no state has to travel back to this thread.
    const scanned = await scanWorkspace(workspace, {
      pool,
      verify,
      retain: 'summary',
      onProgress: (step) => bar.update(verify ? 'verify' : 'scan  ', step),
    });
    const outcome: ScanOutcome = { named, workspace, warnings: load.issues, rows: scanned.rows };
    if (verify) outcome.verify = scanned.rows.map((row) => row.verify);
    return outcome;
  } finally {
    bar.clear();
    await pool.close();
  }
}

/** The same scan on an agent: open the workspace there, scan it, and with --verify verify it, through the API. */
async function runRemoteScan(
  target: SshTarget,
  options: CommandOptions,
  verify: boolean,
  io: CliIo,
): Promise<ScanOutcome | { inputIssues: string[] }> {
  return withAgent(target, options, io, async (connection) => {
    const opened = await connection.call('openWorkspace', { path: target.path });
    if (!opened.ok) {
      const details = opened.error.details as { file?: string; issues?: Issue[] } | undefined;
      if (opened.error.code === 'invalid_workspace' && details?.file && details.issues)
        return { inputIssues: details.issues.map((issue) => issueLine(details.file!, issue)) };
    }
    const summary = valueOf(opened, 'openWorkspace');
    const bar = createProgressBar(io.stderr, Boolean(process.stderr.isTTY) && io.env.TERM !== 'dumb');
    try {
      const byId = new Map<string, ScanEntry>();
      valueOf(
        await connection.job(
          'scan',
          {},
          { onItem: (entry) => byId.set(entry.destination, entry), onProgress: (step) => bar.update('scan  ', step) },
        ),
        'scan',
      );
      const reports = new Map<string, VerifyReport>();
      if (verify)
        valueOf(
          await connection.job(
            'verify',
            {},
            { onItem: (entry) => reports.set(entry.destination, entry.report), onProgress: (step) => bar.update('verify', step) },
          ),
          'verify',
        );
      // Items come as each destination finishes; rows keep the workspace's order, as a local scan does.
      const rows: ScannedDestination[] = summary.destinations.flatMap((destination) => {
        const entry = byId.get(destination.id);
        return entry ? [{ destination, inspection: entry.inspection, summary: entry.summary }] : [];
      });
      const workspace: LoadedWorkspace = {
        kind: summary.kind,
        root: summary.root,
        ...(summary.kind === 'file' ? { file: summary.path } : {}),
        destinations: summary.destinations,
      };
      const outcome: ScanOutcome = { named: target.path, workspace, warnings: summary.issues, rows };
      if (verify) outcome.verify = rows.map((row) => reports.get(row.destination.id));
      return outcome;
    } finally {
      bar.clear();
    }
  });
}

function counts(outcome: ScanOutcome) {
  const byStatus = { total: outcome.rows.length, managed: 0, unmanaged: 0, empty: 0, invalid: 0 };
  for (const row of outcome.rows) byStatus[row.summary.status] += 1;
  if (!outcome.verify) return byStatus;
  const reports = outcome.verify.filter((report): report is VerifyReport => report !== undefined);
  return {
    ...byStatus,
    intact: reports.filter((report) => report.status === 'intact').length,
    drifted: reports.filter((report) => report.status === 'drifted').length,
  };
}

function jsonDocument(outcome: ScanOutcome) {
  const { kind, root, file } = outcome.workspace;
  return {
    workspace: { kind, root, ...(file ? { file } : {}), issues: outcome.warnings },
    counts: counts(outcome),
    destinations: outcome.rows.map((row, index) => {
      const report = outcome.verify?.[index];
      return {
        id: row.destination.id,
        path: row.inspection.path,
        ...row.summary,
        issues: row.inspection.issues,
        ...(row.inspection.stateWithheld ? { stateWithheld: row.inspection.stateWithheld } : {}),
        ...(report ? { verify: report } : {}),
      };
    }),
  };
}

function statusCell(status: string, style: Style): string {
  if (status === 'managed' || status === 'intact') return style.green(status);
  if (status === 'invalid' || status === 'drifted') return style.red(status);
  if (status === 'unmanaged') return style.yellow(status);
  return style.dim(status);
}

/** Which workspace was read: a folder named on the command line may have been read as the workspace file it holds. */
function workspaceLine(outcome: ScanOutcome, style: Style): string {
  const { file, root } = outcome.workspace;
  if (file === undefined) return `${style.dim('Workspace folder:')} ${printable(root)}`;
  const found = file !== outcome.named ? style.dim(` (the workspace file in ${printable(outcome.named)})`) : '';
  return `${style.dim('Workspace file:')} ${printable(file)}${found}`;
}

function humanText(outcome: ScanOutcome, style: Style): string {
  const verifying = outcome.verify !== undefined;
  const header = ['STATUS', ...(verifying ? ['VERIFY'] : []), 'ID', 'OUTPUTS', 'ISSUES', 'PUBLISHED'];
  const rows = outcome.rows.map((row, index) => {
    const { summary } = row;
    const issues =
      summary.errorCount + summary.warningCount === 0 ? '-' : `${summary.errorCount} error(s), ${summary.warningCount} warning(s)`;
    const report = outcome.verify?.[index];
    return [
      statusCell(summary.status, style),
      ...(verifying ? [report ? statusCell(report.status, style) : style.dim('-')] : []),
      printable(row.destination.id),
      String(summary.outputCount),
      issues,
      printable(summary.published_at ?? '-'),
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
    if (notShown > 0) lines.push(`  … and ${groupDigits(notShown)} more error(s); inspect the destination for all of them`);
    if (report?.status === 'drifted') lines.push(...verifyLines(report, style).map((line) => `  ${line}`));
  });

  const tally = counts(outcome);
  const verified = 'intact' in tally ? `; verified ${tally.intact + tally.drifted}: ${tally.intact} intact, ${tally.drifted} drifted` : '';
  lines.push(
    '',
    `${tally.total} destination(s): ${tally.managed} managed, ${tally.unmanaged} unmanaged, ${tally.empty} empty, ${tally.invalid} invalid${verified}`,
  );
  return lines.join('\n') + '\n';
}

export const scanCommand: Command = {
  name: 'scan',
  usage: 'scan WORKSPACE [--verify] [--json] [--agent CMD]',
  summary: 'Status of every destination in a folder or workspace file; --verify hashes every output',
  options: { verify: { type: 'boolean' }, json: { type: 'boolean' }, ...agentOption },
  positionals: [1, 1],
  async run({ positionals, options }, io) {
    const remote = remotePaths([positionals[0]!], ['WORKSPACE'], options.agent);
    const outcome = remote
      ? await runRemoteScan(remote[0]!, options, options.verify === true, io)
      : await runScan(positionals[0]!, options.verify === true, io);
    if ('inputIssues' in outcome) {
      for (const line of outcome.inputIssues) io.stderr(`distributor-inspector scan: ${line}\n`);
      return EXIT_INPUT;
    }
    for (const warning of outcome.warnings)
      io.stderr(`distributor-inspector scan: warning: ${issueLine(outcome.workspace.file ?? outcome.workspace.root, warning)}\n`);
    if (options.json === true) io.stdout(`${JSON.stringify(jsonDocument(outcome), null, 2)}\n`);
    else io.stdout(humanText(outcome, makeStyle(io.isTerminal, io.env)));
    const findings = outcome.rows.some(isFinding) || (outcome.verify ?? []).some((report) => report?.status === 'drifted');
    return findings ? EXIT_FINDINGS : EXIT_OK;
  },
};
