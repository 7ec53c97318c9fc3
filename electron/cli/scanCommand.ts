// `distributor-inspector scan WORKSPACE [--verify] [--json]`: every destination's status, and with
// --verify every output checked against its recorded hash. A thin shell over the service's scan (service/workspaceScan.ts:
// the function the Session's scan runs) and, for hosts, the Session that reaches them (scanHosts.ts,
// loaded only then); the words are renderScan.ts.
// Exit 1 when anything is invalid or drifted (a CI gate, like `kubectl diff`); 2 on a bad workspace.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import path from 'node:path';
import type { Issue } from '../../shared/issues';
import { NO_SOURCE_SYNC } from '../../shared/syncNoSource';
import {
  coresBusySince,
  HashPool,
  isFinding,
  loadWorkspace,
  readCpuSample,
  runInThread,
  scanWorkspace,
  type CpuSample,
  type LoadedWorkspace,
} from '../service/workspaceScan';
import { CliError, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, type CliIo, type Command } from './command';
import { createProgressBar } from './progressBar';
import { makeStyle } from './style';
import { printable } from './terminalText';
import { agentOption, remotePaths, type CommandOptions } from './hostPaths';
import { humanText, issueLine, verifyStatuses, type ScanOutcome } from './renderScan';
import { destinationText, documentPieces } from './scanJsonText';

/** `--hosts-parallel N`: at most N hosts connecting at once (the Session's own default when not given). */
function hostsParallel(options: CommandOptions): number | undefined {
  const text = options['hosts-parallel'];
  if (text === undefined) return undefined;
  const count = Number(text);
  if (typeof text !== 'string' || !/^[0-9]+$/.test(text) || count < 1 || count > 256)
    throw new CliError(`--hosts-parallel must be a whole number from 1 to 256, not ${JSON.stringify(printable(String(text)))}`);
  return count;
}

async function runScan(
  target: string,
  options: CommandOptions,
  verify: boolean,
  io: CliIo,
  hostsLimit: number | undefined,
): Promise<ScanOutcome | { inputIssues: string[] }> {
  // The machine's idle time from here to the pool's choice (idleCores.ts): the workspace's load is the window.
  const cpuBefore = readCpuSample();
  const load = await loadWorkspace(path.resolve(io.cwd, target));
  if (!load.ok) return { inputIssues: load.issues.map((issue) => issueLine(load.file, issue)) };
  const { workspace } = load;
  if (workspace.hosts?.length) {
    const { scanWithHosts } = await import('./scanHosts');
    return scanWithHosts(workspace, load.issues, options, verify, io, hostsLimit);
  }
  return runLocalScan(workspace, load.issues, verify, io, options.json === true, cpuBefore);
}

/**
 * Below this many destinations a plain scan is read in this thread whatever the cores do: two
 * workers' start and their own warm-up of the hot code cost about what they would save.
 */
const WORKERS_FROM_DESTINATIONS = 2000;

async function runLocalScan(
  workspace: LoadedWorkspace,
  warnings: Issue[],
  verify: boolean,
  io: CliIo,
  json: boolean,
  cpuBefore: CpuSample | undefined,
): Promise<ScanOutcome> {
  // A workspace of a few destinations is read in this thread: a worker's start would cost more. So is
  // a plain scan below WORKERS_FROM_DESTINATIONS, or of any size while no core stood idle beside this
  // thread as the workspace loaded: workers would add CPU (their start, their JIT, every row handed
  // over), not speed (HashPool).
  const busy = coresBusySince(cpuBefore);
  const small = workspace.destinations.length < WORKERS_FROM_DESTINATIONS;
  const pool = new HashPool({ runHere: runInThread, coresBusy: () => small || busy() });
  try {
    return await scanWithPool(workspace, warnings, { verify, io, json, pool });
  } finally {
    await pool.close();
  }
}

/** The local scan's rows (and with --json their document's parts), read by `pool`: in its workers or in this thread. */
export async function scanWithPool(
  workspace: LoadedWorkspace,
  warnings: Issue[],
  { verify, io, json, pool }: { verify: boolean; io: CliIo; json: boolean; pool: HashPool },
): Promise<ScanOutcome> {
  // The bar goes to stderr, so it is drawn when stderr is a terminal, whatever stdout is.
  const drawn = Boolean(process.stderr.isTTY) && io.env.TERM !== 'dumb';
  const bar = createProgressBar(io.stderr, drawn);
  try {
    // --verify: each worker verifies right after reading a state. No result is kept: no `digests`.
    const startedAt = new Date().toISOString();
    const syncing = workspace.destinations.some((destination) => destination.source !== undefined);
    // --json: each row's part of the document is printed as it comes, while the workers still read;
    // then only its verify's status is kept.
    const total = workspace.destinations.length;
    const rendered: string[] | undefined = json ? new Array<string>(total) : undefined;
    const verifyStatus: ScanOutcome['verifyStatus'] = new Array(total);
    const scanned = await scanWorkspace(workspace, {
      pool,
      verify,
      retain: 'summary',
      digests: false,
      // Neither the table nor the --json reports `hasContent`: one call a destination fewer.
      settleContent: false,
      // --json: each row's fields, its verify report among them, are printed by the thread that read it;
      // this one only wraps them in the row's id and sync.
      ...(json ? { rowText: verify ? { verifiedAt: startedAt } : {} } : {}),
      // The table lists the drifts only: an intact destination's report stays in its worker.
      ...(!json && verify ? { driftedReportsOnly: true } : {}),
      // Sync only where a source is configured: it reads each state whole, and loads zod for the rules.
      ...(syncing ? { sync: new (await import('./syncLoader')).SourceManifests() } : {}),
      // No bar, no progress: the scan then builds no step object a destination.
      ...(drawn
        ? { onProgress: (step: { done: number; total: number; bytes?: number }) => bar.update(verify ? 'verify' : 'scan  ', step) }
        : {}),
      onResult: (row, index) => {
        if (!syncing) row.sync = NO_SOURCE_SYNC; // said without the rules
        if (!rendered) return;
        // Rendered as the one row of its own outcome (index 0): nothing of it is kept but the text. A
        // row without a text of its worker's (an unreadable destination) is rendered here.
        rendered[index] = destinationText(verify ? { verify: [row.verify], verifiedAt: [startedAt] } : {}, row, 0);
        verifyStatus[index] = row.verifyStatus ?? row.verify?.status;
        if (row.verify) delete row.verify;
      },
    });
    const outcome: ScanOutcome = { workspace, warnings, rows: scanned.rows };
    if (rendered) {
      outcome.rendered = rendered;
      if (verify) outcome.verifyStatus = verifyStatus;
    } else if (verify) {
      outcome.verify = scanned.rows.map((row) => row.verify);
      outcome.verifyStatus = scanned.rows.map((row) => row.verifyStatus ?? row.verify?.status);
    }
    return outcome;
  } finally {
    bar.clear();
  }
}

export const scanCommand: Command = {
  name: 'scan',
  usage: 'scan WORKSPACE [--verify] [--json] [--agent CMD] [--connect-timeout SECONDS] [--hosts-parallel N]',
  summary: 'Status of every destination in a folder or workspace file; --verify hashes every output',
  options: { verify: { type: 'boolean' }, json: { type: 'boolean' }, 'hosts-parallel': { type: 'string' }, ...agentOption },
  positionals: [1, 1],
  async run({ positionals, options }, io) {
    const remote = remotePaths([positionals[0]!], ['WORKSPACE'], options.agent);
    const hostsLimit = hostsParallel(options); // a bad count is refused before any work starts
    const outcome = remote
      ? await (await import('./scanHosts')).runRemoteScan(remote[0]!, options, options.verify === true, io)
      : await runScan(positionals[0]!, options, options.verify === true, io, hostsLimit);
    if ('inputIssues' in outcome) {
      for (const line of outcome.inputIssues) io.stderr(`distributor-inspector scan: ${line}\n`);
      return EXIT_INPUT;
    }
    outcome.named = remote ? remote[0]!.path : path.resolve(io.cwd, positionals[0]!);
    for (const warning of outcome.warnings)
      io.stderr(`distributor-inspector scan: warning: ${issueLine(outcome.workspace.file ?? outcome.workspace.root, warning)}\n`);
    if (options.json === true) for (const piece of documentPieces(outcome, outcome.rendered)) io.stdout(piece);
    else io.stdout(humanText(outcome, makeStyle(io.isTerminal, io.env)));
    // A host that did not answer is a finding: its destinations went unchecked.
    const findings =
      outcome.rows.some(isFinding) ||
      (verifyStatuses(outcome) ?? []).includes('drifted') ||
      (outcome.hosts ?? []).some((host) => host.failure !== undefined);
    return findings ? EXIT_FINDINGS : EXIT_OK;
  },
};
