// `distributor-inspector scan WORKSPACE [--verify] [--json]`: every destination's status, and with
// --verify every output checked against its recorded hash. A thin shell over engine/scan and engine/verify.
// Exit 1 when anything is invalid or drifted (a CI gate, like `kubectl diff`); 2 on a bad workspace.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import path from 'node:path';
import { plural } from '../../shared/plural';
import { countIssues, formatIssuePath, type Issue } from '../../shared/issues';
import type { VerifyReport } from '../../shared/verifyReport';
import { HashPool } from '../engine/hashPool';
import type { SyncStatus } from '../../shared/syncStatus';
import { NO_SOURCE_SYNC } from '../../shared/syncNoSource';
import { SYNC_LABELS } from '../../shared/syncWords';
import { isFinding, scanWorkspace, type ScannedDestination } from '../engine/scan';
import { loadWorkspace, type LoadedWorkspace } from '../engine/workspace';
import { CliError, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, type CliIo, type Command } from './command';
import { createProgressBar } from './progressBar';
import { makeStyle, table, type Style } from './style';
import { verifyLines } from './verifyText';
import { printable } from './terminalText';
import type { ScanEntry } from '../../shared/api';
import { problem, type Problem, type Result } from '../../shared/result';
import { parseSshUrl, type SshTarget } from '../../shared/sshUrl';
import type { WorkspaceHost } from '../../shared/workspaceSchema';
import type { AgentConnection } from '../remote/agentConnection';
import { agentOption, attemptWithAgent, remotePaths, valueOf, withAgent, type CommandOptions } from './remoteSession';

interface ScanOutcome {
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
}

interface HostScan {
  name: string;
  url: string;
  destinations: number;
  failure?: Problem;
}

/** Hosts contacted at once: each runs its own work, so this bounds ssh processes, not CPU here. */
const DEFAULT_HOSTS_PARALLEL = 8;

function issueLine(file: string, issue: Issue): string {
  return `${printable(file)}: ${printable(formatIssuePath(issue.path))}: ${printable(issue.message)}`;
}

async function runScan(
  target: string,
  options: CommandOptions,
  verify: boolean,
  io: CliIo,
  hostsLimit: number,
): Promise<ScanOutcome | { inputIssues: string[] }> {
  const load = await loadWorkspace(path.resolve(io.cwd, target));
  if (!load.ok) return { inputIssues: load.issues.map((issue) => issueLine(load.file, issue)) };
  const { workspace } = load;
  if (workspace.hosts?.length) {
    // The hosts work on their own disks meanwhile; this machine scans its own destinations.
    const [local, hosts] = await Promise.all([
      runLocalScan(workspace, load.issues, verify, io),
      scanHosts(workspace.hosts, options, verify, io, hostsLimit),
    ]);
    return withHosts(local, hosts);
  }
  return runLocalScan(workspace, load.issues, verify, io);
}

async function runLocalScan(workspace: LoadedWorkspace, warnings: Issue[], verify: boolean, io: CliIo): Promise<ScanOutcome> {
  // The bar goes to stderr, so it is drawn when stderr is a terminal, whatever stdout is.
  const bar = createProgressBar(io.stderr, Boolean(process.stderr.isTTY) && io.env.TERM !== 'dumb' && !workspace.hosts?.length);
  const pool = new HashPool();
  try {
    // With --verify each worker verifies a managed destination right after reading its state: one
    // pass, against the state as it is now, and no state has to travel back to this thread.
    const startedAt = new Date().toISOString();
    const syncing = workspace.destinations.some((destination) => destination.source !== undefined);
    const scanned = await scanWorkspace(workspace, {
      pool,
      verify,
      retain: 'summary',
      // Sync only where a source is configured: it reads each state whole, and loads zod for the rules.
      ...(syncing ? { sync: new (await import('./syncLoader')).SourceManifests() } : {}),
      onProgress: (step) => bar.update(verify ? 'verify' : 'scan  ', step),
    });
    if (!syncing) for (const row of scanned.rows) row.sync = NO_SOURCE_SYNC; // said without the rules
    const outcome: ScanOutcome = { workspace, warnings, rows: scanned.rows };
    if (verify) outcome.verify = scanned.rows.map((row) => row.verify);
    if (verify) outcome.verifiedAt = scanned.rows.map((row) => (row.verify ? startedAt : undefined));
    return outcome;
  } finally {
    bar.clear();
    await pool.close();
  }
}

/** Every host of the workspace, at most `--hosts-parallel` at once; one host failing or hanging never stops the others. */
async function scanHosts(
  hosts: WorkspaceHost[],
  options: CommandOptions,
  verify: boolean,
  io: CliIo,
  limit: number,
): Promise<{ host: WorkspaceHost; result: Result<ScanOutcome, Problem> }[]> {
  const results: { host: WorkspaceHost; result: Result<ScanOutcome, Problem> }[] = new Array(hosts.length);
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < hosts.length; index = next++) {
      const host = hosts[index]!;
      results[index] = { host, result: await scanHost(host, options, verify, io) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, hosts.length) }, lane));
  return results;
}

function hostsParallel(options: CommandOptions): number {
  const text = options['hosts-parallel'];
  if (text === undefined) return DEFAULT_HOSTS_PARALLEL;
  const count = Number(text);
  if (typeof text !== 'string' || !/^[0-9]+$/.test(text) || count < 1 || count > 256)
    throw new CliError(`--hosts-parallel must be a whole number from 1 to 256, not ${JSON.stringify(printable(String(text)))}`);
  return count;
}

async function scanHost(host: WorkspaceHost, options: CommandOptions, verify: boolean, io: CliIo): Promise<Result<ScanOutcome, Problem>> {
  const target = parseSshUrl(host.url);
  // The loader checked the URL; a failure here would be a bug, reported like any other host's.
  if (!target.ok) return { ok: false, error: problem('invalid_ssh_url', target.message) };
  const hostOptions: CommandOptions = { ...options, agent: host.agent ?? options.agent };
  const attempt = await attemptWithAgent(target.value, hostOptions, io, (connection) =>
    remoteScan(connection, target.value, verify, io, false),
  );
  if (!attempt.ok) return attempt;
  if ('inputIssues' in attempt.value)
    return { ok: false, error: problem('invalid_workspace', `the workspace there is not valid: ${attempt.value.inputIssues.join('; ')}`) };
  return { ok: true, value: attempt.value };
}

/** The local rows first, then each host's, ids as `host:id`; the hosts' own workspace warnings named by host. */
function withHosts(local: ScanOutcome, hosts: { host: WorkspaceHost; result: Result<ScanOutcome, Problem> }[]): ScanOutcome {
  const outcome: ScanOutcome = {
    ...local,
    rows: [...local.rows],
    rowHosts: local.rows.map(() => undefined),
    hosts: [],
    ...(local.verify ? { verify: [...local.verify] } : {}),
    ...(local.verifiedAt ? { verifiedAt: [...local.verifiedAt] } : {}),
  };
  for (const { host, result } of hosts) {
    if (!result.ok) {
      outcome.hosts!.push({ name: host.name, url: host.url, destinations: 0, failure: result.error });
      continue;
    }
    const remote = result.value;
    outcome.hosts!.push({ name: host.name, url: host.url, destinations: remote.rows.length });
    remote.rows.forEach((row, index) => {
      outcome.rows.push({ ...row, destination: { ...row.destination, id: `${host.name}:${row.destination.id}` } });
      outcome.rowHosts!.push(host.name);
      outcome.verify?.push(remote.verify?.[index]);
      outcome.verifiedAt?.push(remote.verifiedAt?.[index]);
    });
    for (const warning of remote.warnings) outcome.warnings.push({ ...warning, message: `${host.name} (${host.url}): ${warning.message}` });
  }
  return outcome;
}

/** The same scan on an agent: open the workspace there, scan it, and with --verify verify it, through the API. */
async function runRemoteScan(
  target: SshTarget,
  options: CommandOptions,
  verify: boolean,
  io: CliIo,
): Promise<ScanOutcome | { inputIssues: string[] }> {
  return withAgent(target, options, io, (connection) => remoteScan(connection, target, verify, io, true));
}

async function remoteScan(
  connection: AgentConnection,
  target: SshTarget,
  verify: boolean,
  io: CliIo,
  showProgress: boolean,
): Promise<ScanOutcome | { inputIssues: string[] }> {
  const opened = await connection.call('openWorkspace', { path: target.path });
  if (!opened.ok) {
    const details = opened.error.details as { file?: string; issues?: Issue[] } | undefined;
    if (opened.error.code === 'invalid_workspace' && details?.file && details.issues)
      return { inputIssues: details.issues.map((issue) => issueLine(details.file!, issue)) };
  }
  const summary = valueOf(opened, 'openWorkspace');
  const bar = createProgressBar(io.stderr, showProgress && Boolean(process.stderr.isTTY) && io.env.TERM !== 'dumb');
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
    const stamps = new Map<string, string>();
    if (verify)
      valueOf(
        await connection.job(
          'verify',
          {},
          {
            onItem: (entry) => (reports.set(entry.destination, entry.report), stamps.set(entry.destination, entry.stamp.verifiedAt)),
            onProgress: (step) => bar.update('verify', step),
          },
        ),
        'verify',
      );
    // Items come as each destination finishes; rows keep the workspace's order, as a local scan does.
    const rows: ScannedDestination[] = summary.destinations.flatMap((destination) => {
      const entry = byId.get(destination.id);
      return entry
        ? [{ destination, inspection: entry.inspection, summary: entry.summary, ...(entry.sync ? { sync: entry.sync } : {}) }]
        : [];
    });
    const workspace: LoadedWorkspace = {
      kind: summary.kind,
      root: summary.root,
      ...(summary.kind === 'file' ? { file: summary.path } : {}),
      destinations: summary.destinations,
    };
    const outcome: ScanOutcome = { workspace, warnings: summary.issues, rows };
    if (verify) outcome.verify = rows.map((row) => reports.get(row.destination.id));
    if (verify) outcome.verifiedAt = rows.map((row) => stamps.get(row.destination.id));
    return outcome;
  } finally {
    bar.clear();
  }
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
    destinations: outcome.rows.map((row, index) => {
      const report = outcome.verify?.[index];
      const host = outcome.rowHosts?.[index];
      return {
        id: row.destination.id,
        ...(host !== undefined ? { host } : {}),
        path: row.inspection.path,
        ...row.summary,
        issues: row.inspection.issues,
        ...(row.inspection.stateWithheld ? { stateWithheld: row.inspection.stateWithheld } : {}),
        // verified_at and freshness as in the app's export (docs/verify-freshness.md): fresh as of verified_at.
        ...(report ? { verify: report, verified_at: outcome.verifiedAt?.[index], freshness: 'fresh' } : {}),
        ...(row.sync ? { sync: row.sync } : {}),
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

function humanText(outcome: ScanOutcome, style: Style): string {
  const verifying = outcome.verify !== undefined;
  const header = ['STATUS', ...(verifying ? ['VERIFY'] : []), 'ID', 'OUTPUTS', 'ISSUES', 'PUBLISHED', 'SYNC'];
  const rows = outcome.rows.map((row, index) => {
    const { summary } = row;
    const counted = `${plural(summary.errorCount, 'error')}, ${plural(summary.warningCount, 'warning')}`;
    const issues = summary.errorCount + summary.warningCount === 0 ? '-' : counted;
    const report = outcome.verify?.[index];
    return [
      statusCell(summary.status, style),
      ...(verifying ? [report ? statusCell(report.status, style) : style.dim('-')] : []),
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
        ? style.red(`failed: ${printable(host.failure.message)}${host.failure.code === 'cli_error' ? '' : ` (${host.failure.code})`}`)
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

export const scanCommand: Command = {
  name: 'scan',
  usage: 'scan WORKSPACE [--verify] [--json] [--agent CMD] [--hosts-parallel N]',
  summary: 'Status of every destination in a folder or workspace file; --verify hashes every output',
  options: { verify: { type: 'boolean' }, json: { type: 'boolean' }, 'hosts-parallel': { type: 'string' }, ...agentOption },
  positionals: [1, 1],
  async run({ positionals, options }, io) {
    const remote = remotePaths([positionals[0]!], ['WORKSPACE'], options.agent);
    const hostsLimit = hostsParallel(options); // a bad count is refused before any work starts
    const outcome = remote
      ? await runRemoteScan(remote[0]!, options, options.verify === true, io)
      : await runScan(positionals[0]!, options, options.verify === true, io, hostsLimit);
    if ('inputIssues' in outcome) {
      for (const line of outcome.inputIssues) io.stderr(`distributor-inspector scan: ${line}\n`);
      return EXIT_INPUT;
    }
    outcome.named = remote ? remote[0]!.path : path.resolve(io.cwd, positionals[0]!);
    for (const warning of outcome.warnings)
      io.stderr(`distributor-inspector scan: warning: ${issueLine(outcome.workspace.file ?? outcome.workspace.root, warning)}\n`);
    if (options.json === true) io.stdout(`${JSON.stringify(jsonDocument(outcome), null, 2)}\n`);
    else io.stdout(humanText(outcome, makeStyle(io.isTerminal, io.env)));
    // A host that did not answer is a finding: its destinations went unchecked.
    const findings =
      outcome.rows.some(isFinding) ||
      (outcome.verify ?? []).some((report) => report?.status === 'drifted') ||
      (outcome.hosts ?? []).some((host) => host.failure !== undefined);
    return findings ? EXIT_FINDINGS : EXIT_OK;
  },
};
