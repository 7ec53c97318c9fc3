// `scan` across hosts (scanCommand.ts), through the one door as the app does it: the CLI's Session
// (hostDoor.ts) opens the workspace file, which connects its hosts (at most `--hosts-parallel` at once,
// service/hostRouter.ts); this machine's destinations are scanned at once and each host's as soon as it
// has connected, by the Session's own `scan`, or with --verify its `verify` alone (each item a row with
// its report, one read), routed to the host by service/hostRouting.ts, as the app scans a host when it
// connects (renderer/state/hostActions.ts). A workspace on a host
// (`scan ssh://…`) is that workspace's one host, printed as the local document with the host's own ids.
// Renders answers only: one host failing or hanging never stops the others, and opens no connection here.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import type { DestinationEntry, DestinationRead, HostStateEvent } from '../../shared/api';
import type { ApiResult } from '../../shared/apiError';
import { idOnHost } from '../../shared/hostState';
import type { Issue } from '../../shared/issues';
import { problem, type Problem, type Result } from '../../shared/result';
import { formatSshUrl, type SshTarget } from '../../shared/sshUrl';
import type { WorkspaceHost } from '../../shared/workspaceSchema';
import type { HostConnector } from '../service/hostLink';
import type { LoadedWorkspace, ScannedDestination } from '../service/workspaceScan';
import { CliError, EXIT_INPUT, type CliIo } from './command';
import { answerOf, type HostDoor, type SettledHost } from './door';
import { withHostDoor } from './hostDoor';
import type { CommandOptions } from './hostPaths';
import { createProgressBar, type ProgressBar } from './progressBar';
import { issueLine, type ScanOutcome } from './renderScan';
import { printable } from './terminalText';

/** What a scan (and with --verify a verify) of some destinations answered, by row. */
type Read = Pick<ScanOutcome, 'rows' | 'verify' | 'verifiedAt'>;

/** How the Session is made for a scan: hosts at once, and the CLI's verify hashes every output (no stat cache). */
function sessionFor(hostsParallel: number | undefined, connectHost: HostConnector | undefined) {
  return {
    statCacheFile: false as const,
    ...(hostsParallel !== undefined ? { hostsParallel } : {}),
    ...(connectHost ? { connectHost } : {}),
  };
}

/**
 * Scans `ids`, or with `verify` verifies them, through the Session; rows in the order of `listed`. With
 * `verify` the verify job alone: each of its items is a destination's row with its report, read in one
 * pass, so a destination replaced meanwhile is never printed with a status and a report of two reads.
 * A refusal is the answer's error: what a host's part needs, where it must not end the others.
 */
async function readThrough(door: HostDoor, listed: DestinationEntry[], verify: boolean, bar?: ProgressBar): Promise<ApiResult<Read>> {
  const destinations = listed.map((entry) => entry.id);
  const reads = new Map<string, DestinationRead>();
  // A scan of no destination is no job: the Session would have nothing to add up.
  if (destinations.length > 0) {
    const done = verify
      ? await door.job(
          'verify',
          { destinations },
          { onItem: (read) => reads.set(read.entry.destination, read), onProgress: (step) => bar?.update('verify', step) },
        )
      : await door.job(
          'scan',
          { destinations },
          { onItem: (entry) => reads.set(entry.destination, { entry }), onProgress: (step) => bar?.update('scan  ', step) },
        );
    if (!done.ok) return done;
  }
  // Items come as each destination finishes; rows keep the workspace's order, as a local scan does.
  const rows: ScannedDestination[] = [];
  const kept: DestinationRead[] = [];
  for (const destination of listed) {
    const read = reads.get(destination.id);
    if (!read) continue;
    const { entry } = read;
    rows.push({ destination, inspection: entry.inspection, summary: entry.summary, ...(entry.sync ? { sync: entry.sync } : {}) });
    kept.push(read);
  }
  const result: Read = { rows };
  if (verify) result.verify = kept.map((read) => read.verify?.report);
  if (verify) result.verifiedAt = kept.map((read) => read.verify?.stamp.verifiedAt);
  return { ok: true, value: result };
}

/** Each host's first settled state (connected, or why not), heard from before the workspace opens. */
function settledHosts(door: HostDoor) {
  const waits = new Map<string, { settled: Promise<SettledHost>; heard: (settled: SettledHost) => void }>();
  const wait = (name: string) => {
    let found = waits.get(name);
    if (!found) {
      let heard: (settled: SettledHost) => void = () => {};
      const settled = new Promise<SettledHost>((resolve) => (heard = resolve));
      waits.set(name, (found = { settled, heard }));
    }
    return found;
  };
  const stop = door.onHostState(({ host, destinations, workspace }: HostStateEvent) => {
    if (host.state !== 'connecting')
      wait(host.name).heard({ state: host, destinations: destinations ?? [], ...(workspace ? { workspace } : {}) });
  });
  return { of: (name: string) => wait(name).settled, stop };
}

/** A host's failure as the HOSTS rows say it: its code, its message without the host's name (the row names it). */
function hostProblem(name: string, failure: { code: string; message: string; file?: string; issues?: Issue[] }): Problem {
  if (failure.file !== undefined && failure.issues?.length)
    return problem(
      failure.code,
      `the workspace there is not valid: ${failure.issues.map((issue) => issueLine(failure.file!, issue)).join('; ')}`,
    );
  const message = failure.message.startsWith(`${name}: `) ? failure.message.slice(name.length + 2) : failure.message;
  return problem(failure.code, printable(message));
}

/** One host's part: once it settled, its destinations read through the Session, or why it could not be. */
async function hostPart(door: HostDoor, host: WorkspaceHost, settled: Promise<SettledHost>, verify: boolean) {
  const { state, destinations, workspace } = await settled;
  if (state.state !== 'connected')
    return { ok: false as const, error: hostProblem(host.name, state.failure ?? { code: 'host_unavailable', message: state.state }) };
  const read = await readThrough(door, destinations, verify);
  if (!read.ok) return { ok: false as const, error: hostProblem(host.name, read.error) };
  return { ok: true as const, value: { ...read.value, warnings: workspace?.issues ?? [] } };
}

type HostResult = Result<Read & { warnings: Issue[] }, Problem>;

/**
 * A workspace file with hosts: this machine's destinations and every host's, through one Session that
 * reaches the hosts (`connectHost`: the tests' stand-in; else ssh and the agent). The rows of each host
 * are named `NAME:ID`; a host that failed is listed with why, and the others still answer.
 */
export async function scanWithHosts(
  workspace: LoadedWorkspace,
  warnings: Issue[],
  options: CommandOptions,
  verify: boolean,
  io: CliIo,
  hostsParallel: number | undefined,
  connectHost?: HostConnector,
): Promise<ScanOutcome> {
  const hosts = workspace.hosts ?? [];
  return withHostDoor(
    options,
    io,
    async (door) => {
      const settled = settledHosts(door);
      try {
        const opened = answerOf(await door.call('openWorkspace', { path: workspace.file ?? workspace.root }), 'openWorkspace');
        // The hosts work on their own disks meanwhile; this machine scans its own destinations.
        const [local, ...parts] = await Promise.all([
          readThrough(
            door,
            opened.destinations.filter((entry) => entry.host === undefined),
            verify,
          ),
          ...hosts.map((host) => hostPart(door, host, settled.of(host.name), verify)),
        ]);
        return withHosts(
          { workspace, warnings, ...answerOf(local!, 'scan') },
          hosts.map((host, index) => ({ host, result: parts[index]! })),
        );
      } finally {
        settled.stop();
      }
    },
    sessionFor(hostsParallel, connectHost),
  );
}

/** The local rows first, then each host's (ids `NAME:ID`); the hosts' own workspace warnings named by host. */
function withHosts(local: ScanOutcome, hosts: { host: WorkspaceHost; result: HostResult }[]): ScanOutcome {
  const outcome: ScanOutcome = {
    ...local,
    rows: [...local.rows],
    rowHosts: local.rows.map(() => undefined),
    hosts: [],
    warnings: [...local.warnings],
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
      outcome.rows.push(row);
      outcome.rowHosts!.push(host.name);
      outcome.verify?.push(remote.verify?.[index]);
      outcome.verifiedAt?.push(remote.verifiedAt?.[index]);
    });
    for (const warning of remote.warnings) outcome.warnings.push({ ...warning, message: `${host.name} (${host.url}): ${warning.message}` });
  }
  return outcome;
}

/**
 * A workspace on a host (`scan ssh://…`): the Session opens it as a workspace of one host and reads it
 * through the host's agent; printed as the local document of that workspace, with the host's own ids.
 */
export async function runRemoteScan(
  target: SshTarget,
  options: CommandOptions,
  verify: boolean,
  io: CliIo,
  connectHost?: HostConnector,
): Promise<ScanOutcome | { inputIssues: string[] }> {
  return withHostDoor(
    options,
    io,
    async (door) => {
      const { state, destinations, workspace } = await door.openHost(formatSshUrl(target), false);
      if (state.state !== 'connected' || !workspace) {
        const failure = state.failure ?? { code: 'host_unavailable', message: state.state };
        if (failure.file !== undefined && failure.issues?.length)
          return { inputIssues: failure.issues.map((issue) => issueLine(failure.file!, issue)) };
        throw new CliError(`${printable(failure.message)} (${failure.code})`, EXIT_INPUT);
      }
      const bar = createProgressBar(io.stderr, Boolean(process.stderr.isTTY) && io.env.TERM !== 'dumb');
      try {
        const read = await readThrough(door, destinations, verify, bar);
        const { rows, ...reports } = answerOf(read, 'scan');
        // The host's own ids: this is that workspace's document, not a row of a workspace here.
        const bare = ({ host: _host, ...entry }: DestinationEntry) => ({ ...entry, id: idOnHost(state.name, entry.id) ?? entry.id });
        const loaded: LoadedWorkspace = {
          kind: workspace.kind,
          root: workspace.root,
          ...(workspace.kind === 'file' ? { file: workspace.path } : {}),
          destinations: destinations.map(bare),
        };
        return {
          workspace: loaded,
          warnings: workspace.issues,
          rows: rows.map((row) => ({ ...row, destination: bare(row.destination) })),
          ...reports,
        };
      } finally {
        bar.clear();
      }
    },
    sessionFor(undefined, connectHost),
  );
}
