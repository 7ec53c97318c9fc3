// Many workspace hosts at once (issue 15): HOSTS sshd of our own on 127.0.0.1 (electron/testing/
// sshHarness.ts: throwaway keys, the agent from the repo's build), each "host" with its own tree of
// DESTINATIONS managed destinations × OUTPUTS outputs of 4 KiB, all named by aliases in one ssh config,
// and the app's Session on a workspace file listing them. Measured, paired with a baseline each run:
//
// - the list usable: openWorkspace until the first host's destinations are listed (its `hostState`
//   connected event), against one host alone (a workspace of that host only), target ≤ 2×; the time
//   until every host is listed is a note.
// - a full verify of every host's destinations through the Session (each agent hashing where its
//   files are), against every host's own local verify (`scan TREE --verify` on each tree) started at
//   the same moment, until the slowest is done: the time of the slowest host's own verify, with the
//   hosts sharing this machine's cores as the Session's agents do. Target ≤ 1.3×. The lone host's
//   local verify (nothing else running), the figure hosts on machines of their own would give, is a note.
//
// Each side: one warm-up, then at most 2 measured runs (fewer with --runs 1): a full-size run is long.
// Sizes from the environment: DI_BENCH_HOSTS (default 20; 4 with --quick), DI_BENCH_HOST_DESTINATIONS
// (1000; 250 with --quick), DI_BENCH_HOST_OUTPUTS (10). Skipped, with the reason, where sshd cannot run.
// Writes only in the bench's temp dir; stops every sshd it started, by pid.

import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApiEvent } from '../shared/api';
import { Session } from '../electron/service/session';
import { sshHostConnector } from '../electron/remote/hostConnector';
import { callOk } from '../electron/testing/sessionCalls';
import { sshConfigOf, sshUnavailableReason, startSshServer, type SshServer } from '../electron/testing/sshHarness';
import { timeRow, type Bench, type BenchContext, type BenchRow } from './bench';
import { writeTree } from './generateTree';
import { formatMs, measurePaired, runOnce, spreadOf, timingOf, type Run } from './measure';

export interface RemoteHostsShape {
  hosts: number;
  destinations: number;
  outputs: number;
}

/** A whole number ≥ 1 from the environment, or the default; anything else is an error naming the variable. */
function sizeFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1, not ${JSON.stringify(text)}`);
  return value;
}

export function remoteHostsShape(quick: boolean, env: NodeJS.ProcessEnv = process.env): RemoteHostsShape {
  return {
    hosts: sizeFrom(env, 'DI_BENCH_HOSTS', quick ? 4 : 20),
    destinations: sizeFrom(env, 'DI_BENCH_HOST_DESTINATIONS', quick ? 250 : 1000),
    outputs: sizeFrom(env, 'DI_BENCH_HOST_OUTPUTS', 10),
  };
}

interface Hosts {
  servers: SshServer[];
  trees: string[];
  sshCommand: string;
  /** Every host: the workspace file the Session opens. */
  allFile: string;
  /** The first host only: the baseline of the list row. */
  oneFile: string;
}

async function setUp(context: BenchContext, shape: RemoteHostsShape): Promise<Hosts> {
  const dir = path.join(context.workDir, 'remote-hosts');
  await fs.mkdir(dir, { recursive: true });
  context.log(`remote-hosts: starting ${shape.hosts} sshd on 127.0.0.1…`);
  const servers: SshServer[] = [];
  try {
    // A few at a time: each makes four keys with ssh-keygen.
    for (let i = 0; i < shape.hosts; i += 4)
      servers.push(...(await Promise.all(Array.from({ length: Math.min(4, shape.hosts - i) }, () => startSshServer()))));
    const started = performance.now();
    context.log(
      `remote-hosts: generating ${shape.hosts} trees of ${shape.destinations.toLocaleString('en-US')} destinations × ${shape.outputs} outputs of 4 KiB…`,
    );
    const trees = servers.map((_, i) => {
      const tree = path.join(dir, `host-${i + 1}`);
      writeTree(tree, { destinations: shape.destinations, outputsPerDestination: shape.outputs, outputBytes: 4096 });
      return tree;
    });
    context.log(`  generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const sshCommand = await sshConfigOf(
      dir,
      servers.map((server, i) => ({ alias: `host-${i + 1}`, server })),
    );
    const hostEntry = (server: SshServer, i: number) => ({
      name: `host-${i + 1}`,
      url: `ssh://host-${i + 1}${trees[i]}`,
      agent: server.agentCommand,
    });
    const allFile = path.join(dir, 'all-hosts.json');
    await fs.writeFile(allFile, JSON.stringify({ hosts: servers.map(hostEntry) }));
    const oneFile = path.join(dir, 'one-host.json');
    await fs.writeFile(oneFile, JSON.stringify({ hosts: [hostEntry(servers[0]!, 0)] }));
    return { servers, trees, sshCommand, allFile, oneFile };
  } catch (cause) {
    await Promise.all(servers.map((server) => server.stop()));
    throw cause;
  }
}

interface SessionRun {
  firstListedMs: number;
  allListedMs: number;
  verifyMs?: number;
}

/**
 * The app's Session on `file`: from openWorkspace, when the first host's destinations are listed and
 * when every host's are; with `verify`, then a verify of every destination, checked to be all intact.
 */
async function sessionRun(
  hosts: Hosts,
  file: string,
  expected: { hosts: number; destinations: number },
  verify: boolean,
): Promise<SessionRun> {
  const session = new Session({
    transport: 'http',
    liveRefresh: false,
    connectHost: sshHostConnector({ env: { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: hosts.sshCommand } }),
  });
  try {
    let firstListedMs: number | undefined;
    const listed = new Set<string>();
    let allListed: () => void = () => {};
    const everyHost = new Promise<void>((resolve) => (allListed = resolve));
    let failed: (error: Error) => void = () => {};
    const failure = new Promise<never>((_, reject) => (failed = reject));
    const ends = new Map<string, (event: ApiEvent) => void>();
    const ended = new Map<string, ApiEvent>();
    const started = performance.now();
    session.onEvent((event) => {
      if (event.event === 'hostState') {
        const { host, destinations } = event.data;
        if (host.state === 'failed' || host.state === 'lost')
          failed(new Error(`${host.name} ${host.state}: ${host.failure?.code} ${host.failure?.message}`));
        if (host.state === 'connected' && destinations !== undefined) {
          if (destinations.length !== expected.destinations)
            failed(new Error(`${host.name} listed ${destinations.length} destinations, not ${expected.destinations}`));
          firstListedMs ??= performance.now() - started;
          listed.add(host.name);
          if (listed.size === expected.hosts) allListed();
        }
      }
      if (event.event === 'result' || event.event === 'error') {
        ended.set(event.data.job, event);
        ends.get(event.data.job)?.(event);
      }
    });
    await callOk(session, 'openWorkspace', { path: file });
    await Promise.race([everyHost, failure]);
    const run: SessionRun = { firstListedMs: firstListedMs!, allListedMs: performance.now() - started };
    if (verify) {
      const verifyStarted = performance.now();
      const { job } = await callOk(session, 'verify', {});
      const end = await Promise.race([
        new Promise<ApiEvent>((resolve) => {
          if (ended.has(job)) resolve(ended.get(job)!);
          else ends.set(job, resolve);
        }),
        failure,
      ]);
      run.verifyMs = performance.now() - verifyStarted;
      const all = expected.hosts * expected.destinations;
      if (end.event !== 'result') throw new Error(`verify ended with ${JSON.stringify(end.data)}`);
      const result = end.data.result as { intact: number; drifted: number; skipped: number };
      if (result.intact !== all) throw new Error(`verify found ${JSON.stringify(result)}, not ${all} intact`);
    }
    return run;
  } finally {
    await session.close();
  }
}

/** Every host's own `scan TREE --verify` started at once: the wall time until the slowest is done. */
async function everyLocalVerify(cli: string, trees: string[]): Promise<Run> {
  const started = performance.now();
  const runs = await Promise.all(trees.map((tree) => runOnce(['node', cli, 'scan', tree, '--verify', '--json'])));
  const cpus = runs.map((run) => run.cpuMs);
  return {
    wallMs: performance.now() - started,
    cpuMs: cpus.every((cpu) => cpu !== undefined) ? cpus.reduce((sum: number, cpu) => sum + cpu!, 0) : undefined,
  };
}

export const remoteHostsBench: Bench = {
  name: 'remote-hosts',
  async run(context): Promise<BenchRow[]> {
    const unavailable = sshUnavailableReason();
    if (unavailable) {
      context.log(`remote-hosts: skipped, sshd cannot run here: ${unavailable}`);
      return [];
    }
    const shape = remoteHostsShape(context.quick);
    const hosts = await setUp(context, shape);
    try {
      const expected = { hosts: shape.hosts, destinations: shape.destinations };
      const size = `${shape.hosts} hosts × ${shape.destinations.toLocaleString('en-US')} destinations × ${shape.outputs} outputs of 4 KiB`;
      const cores = os.cpus().length;
      const runs = Math.min(context.runs, 2);

      context.log('remote-hosts: the list, every host against one host alone, paired…');
      const allListed: number[] = [];
      const list = await measurePaired(
        async () => {
          const run = await sessionRun(hosts, hosts.allFile, expected, false);
          allListed.push(run.allListedMs);
          return { wallMs: run.firstListedMs };
        },
        async () => ({
          wallMs: (await sessionRun(hosts, hosts.oneFile, { hosts: 1, destinations: shape.destinations }, false)).firstListedMs,
        }),
        { runs },
      );

      context.log('remote-hosts: a full verify through the Session against every host verifying its own at once, paired…');
      const lone: Run[] = [];
      const verify = await measurePaired(
        async () => ({ wallMs: (await sessionRun(hosts, hosts.allFile, expected, true)).verifyMs! }),
        () => everyLocalVerify(context.cli, hosts.trees),
        { runs },
      );
      context.log('remote-hosts: one host’s local verify alone…');
      for (let i = 0; i < runs; i += 1) lone.push(await runOnce(['node', context.cli, 'scan', hosts.trees[0]!, '--verify', '--json']));
      const loneMs = timingOf(lone).wall.median;
      const outputs = shape.hosts * shape.destinations * shape.outputs;

      return [
        timeRow(`remote hosts: the first host's destinations listed, ${size}`, list, 'a workspace of one host alone, listed', { wall: 2 }, [
          // The first run of `ours` is its warm-up: left out, as measurePaired leaves it out of `list`.
          `every host listed after ${formatMs(spreadOf(allListed.slice(1)).median)} (median); at most 8 hosts connect at once`,
        ]),
        timeRow(
          `remote hosts: verify every destination through the Session, ${size}`,
          verify,
          `each host's own scan --verify, all ${shape.hosts} started at once, until the slowest is done`,
          { wall: 1.3 },
          [
            `${Math.round(outputs / (verify.ours.wall.median / 1000)).toLocaleString('en-US')} outputs/s over ssh; both sides run ${shape.hosts} processes with a hash pool each (the agents, the scans) on these cores, but the agents are started already (their start is in the row above)`,
            `one host's local verify alone: ${formatMs(loneMs)}; the Session's verify is ${(verify.ours.wall.median / loneMs).toFixed(1)}× that, with the ${shape.hosts} hosts sharing this machine's ${cores} cores (on machines of their own the hosts would not share them)`,
          ],
        ),
      ];
    } finally {
      await Promise.all(hosts.servers.map((server) => server.stop()));
    }
  },
};
