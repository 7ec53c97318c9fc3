// `scan` across hosts (scanCommand.ts): a workspace's hosts each asked through its agent, at most
// `--hosts-parallel` at once, and a workspace on a host (`scan ssh://…`) scanned there, through the
// same API the app uses; one host failing or hanging never stops the others.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import type { Issue } from '../../shared/issues';
import type { VerifyReport } from '../../shared/verifyReport';
import { type LoadedWorkspace, type ScannedDestination } from '../service/workspaceScan';
import { CliError, EXIT_INPUT, type CliIo } from './command';
import { createProgressBar } from './progressBar';
import { printable } from './terminalText';
import type { ScanEntry } from '../../shared/api';
import { problem, type Problem, type Result } from '../../shared/result';
import { parseSshUrl, type SshTarget } from '../../shared/sshUrl';
import type { WorkspaceHost } from '../../shared/workspaceSchema';
import type { AgentConnection } from '../remote/agentConnection';
import { valueOf, type CommandOptions } from './hostPaths';
import { issueLine, type ScanOutcome } from './renderScan';

/** Hosts contacted at once: each runs its own work, so this bounds ssh processes, not CPU here. */
export const DEFAULT_HOSTS_PARALLEL = 8;

/** Every host of the workspace, at most `--hosts-parallel` at once; one host failing or hanging never stops the others. */
export async function scanHosts(
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

export function hostsParallel(options: CommandOptions): number {
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
export function withHosts(local: ScanOutcome, hosts: { host: WorkspaceHost; result: Result<ScanOutcome, Problem> }[]): ScanOutcome {
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
export async function runRemoteScan(
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

// scan's own connection to each host, until its fan-out goes through the Session's routing as the
// other commands' ssh:// paths do (hostDoor.ts).
/** Connects, runs `work`, closes; any remote failure becomes a CliError with what to do. */
async function withAgent<T>(
  target: SshTarget,
  options: CommandOptions,
  io: CliIo,
  work: (connection: AgentConnection) => Promise<T>,
): Promise<T> {
  const attempt = await attemptWithAgent(target, options, io, work);
  if (attempt.ok) return attempt.value;
  const { code, message, details } = attempt.error;
  throw code === 'cli_error' ? new CliError(message, details!.exitCode as number) : new CliError(`${message} (${code})`, EXIT_INPUT);
}

/**
 * The same, with a failure as data (its RemoteFailure code, or `cli_error` for an answer the command
 * refused): what a scan of many hosts needs, where one host's failure must not end the others.
 */
async function attemptWithAgent<T>(
  target: SshTarget,
  options: CommandOptions,
  io: CliIo,
  work: (connection: AgentConnection) => Promise<T>,
): Promise<Result<T, Problem>> {
  const agent = typeof options.agent === 'string' ? options.agent : undefined;
  const debug = options.debug === true;
  const { AgentConnection, RemoteFailure, APP_VERSION } = await import('./agentClient');
  let connection: AgentConnection | undefined;
  try {
    connection = await AgentConnection.connect({
      target,
      agent,
      env: io.env,
      clientVersion: APP_VERSION,
      onNotice: (line) => io.stderr(`distributor-inspector: ${line}\n`),
      onRemoteLog: debug ? (line) => io.stderr(`distributor-inspector: remote: ${line}\n`) : undefined,
    });
    return { ok: true, value: await work(connection) };
  } catch (cause) {
    const failure = connection?.lost ?? cause;
    if (failure instanceof RemoteFailure) return { ok: false, error: problem(failure.code, printable(failure.message)) };
    if (failure instanceof CliError) return { ok: false, error: problem('cli_error', failure.message, { exitCode: failure.exitCode }) };
    throw failure;
  } finally {
    await connection?.close();
  }
}
