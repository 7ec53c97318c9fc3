// Verify that stays fresh (issue 24), on the shared tree of 10,000 destinations × 10 outputs:
// - re-verify with nothing changed, through the stat cache (in this process, its worker pool warm,
//   as the app does it), against `find DIR -type f -printf '%s %T@ %i\n'` over the same tree, paired
//   (target ≤ 1.5×): both stat every file and list every folder; ours proves each state file
//   unchanged by its stats too, and builds each row from the stat cache (CPU: this process's);
// - the same with one output changed before each run (target: one file hashed, ≤ 1.2× the unchanged);
// - a Session with live refresh on the tree (10,000 destinations watched, all verified): a nested
//   output edited → its row stale (target 1 s), → drifted by auto-verify (target 2 s).
// Generates its data in the bench's temp dir; never writes elsewhere.

import { promises as fs, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { budgetRow, timeRow, type Bench, type BenchContext, type BenchRow } from './bench';
import { runOnce, timingOf, type Run } from './measure';
import { TREE_SHAPE, workspaceTree } from './workspaceTree';
import { HashPool } from '../electron/engine/hashPool';
import { scanWorkspace } from '../electron/engine/scan';
import { StatCache } from '../electron/engine/statCache';
import { loadWorkspace } from '../electron/engine/workspace';
import { Session } from '../electron/service/session';
import type { ApiEvent } from '../shared/api';
import { RACY_MARGIN_NS } from '../shared/verifyFreshnessStat';

const LIVE_SAMPLES = 5;

/** Waits until every file of the tree is older than the racy margin: younger ones are hashed again by design. */
async function untilOlderThanRacyMargin(root: string): Promise<void> {
  const marginMs = Number(RACY_MARGIN_NS / 1_000_000n) + 100;
  const newest = readdirSync(root).reduce((latest, name) => Math.max(latest, statSync(path.join(root, name)).ctimeMs), 0);
  const wait = newest + marginMs - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

async function reverifyRows(context: BenchContext, root: string): Promise<BenchRow[]> {
  const load = await loadWorkspace(root);
  if (!load.ok) throw new Error(`the bench tree does not load: ${JSON.stringify(load.issues)}`);
  const workspace = load.workspace;
  const pool = new HashPool();
  const cacheFile = path.join(context.workDir, 'verify-stat-cache.json');
  await untilOlderThanRacyMargin(root);
  const { cache } = await StatCache.load(cacheFile);
  const verify = async () => {
    let hashed = 0;
    // This process does nothing else meanwhile: its CPU (every thread's) is the verify's.
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await scanWorkspace(workspace, {
      pool,
      verify: true,
      retain: 'summary',
      statCache: cache,
      onResult: (row) => (hashed += row.hashedFiles ?? 0),
    });
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    return { run: { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 } satisfies Run, hashed };
  };
  try {
    const first = await verify();
    context.log(`reverify: first verify hashed ${first.hashed.toLocaleString('en-US')} files in ${(first.run.wallMs / 1000).toFixed(2)} s`);
    const find = ['find', root, '-type', 'f', '-printf', '%s %T@ %i\\n'];
    const ours: Run[] = [];
    const baseline: Run[] = [];
    const hashedUnchanged: number[] = [];
    const changed: Run[] = [];
    const hashedChanged: number[] = [];
    const edited = path.join(
      root,
      readdirSync(root).sort()[0]!,
      readdirSync(path.join(root, readdirSync(root).sort()[0]!)).find((n) => !n.startsWith('.'))!,
    );
    await verify();
    await runOnce(find);
    for (let i = 0; i < context.runs; i += 1) {
      // Each side first in every other pair.
      const pair = i % 2 === 0 ? [verify, () => runOnce(find)] : [() => runOnce(find), verify];
      for (const side of pair) {
        const outcome = await side();
        if ('hashed' in outcome) {
          ours.push(outcome.run);
          hashedUnchanged.push(outcome.hashed);
        } else baseline.push(outcome);
      }
      const bytes = await fs.readFile(edited);
      bytes[0] = bytes[0]! ^ 1;
      await fs.writeFile(edited, bytes);
      const after = await verify();
      changed.push(after.run);
      hashedChanged.push(after.hashed);
    }
    const outputs = (TREE_SHAPE.destinations * TREE_SHAPE.outputsPerDestination).toLocaleString('en-US');
    const unchanged = timingOf(ours);
    return [
      timeRow(
        `re-verify, ${outputs} outputs, nothing changed (stat cache)`,
        { ours: unchanged, baseline: timingOf(baseline) },
        "find -type f -printf '%s %T@ %i\\n'",
        { wall: 1.5 },
        [`files hashed per run: ${[...new Set(hashedUnchanged)].join(', ')}`],
      ),
      timeRow(
        `re-verify, ${outputs} outputs, 1 changed`,
        { ours: timingOf(changed), baseline: unchanged },
        're-verify with nothing changed',
        { wall: 1.2 },
        [`files hashed per run: ${[...new Set(hashedChanged)].join(', ')} (target 1)`],
      ),
    ];
  } finally {
    await pool.close();
  }
}

async function liveRows(context: BenchContext, root: string): Promise<BenchRow[]> {
  const session = new Session({
    transport: 'http',
    progressIntervalMs: 1000,
    statCacheFile: path.join(context.workDir, 'session-stat-cache.json'),
  });
  const events: { at: number; event: ApiEvent }[] = [];
  session.onEvent((event) => events.push({ at: performance.now(), event }));
  try {
    const opened = await session.call('openWorkspace', { path: root });
    if (!opened.ok) throw new Error(`open failed: ${opened.error.message}`);
    const status = await session.call('liveRefreshStatus', {});
    context.log(`reverify: live refresh ${JSON.stringify(status.ok ? status.value : status)}`);
    const started = await session.call('verify', {});
    if (!started.ok) throw new Error(started.error.message);
    await until(() => events.some((e) => e.event.event === 'result'), 600_000);
    const stale: number[] = [];
    const drifted: number[] = [];
    const names = readdirSync(root).sort();
    for (let i = 0; i < LIVE_SAMPLES; i += 1) {
      const name = names[(i * 1999) % names.length]!;
      const file = path.join(
        root,
        name,
        readdirSync(path.join(root, name)).find((n) => !n.startsWith('.'))!,
      );
      const from = events.length;
      const t = performance.now();
      await fs.appendFile(file, 'edited on the server');
      const isChange = (e: ApiEvent) =>
        e.event === 'liveRefresh' && e.data.kind === 'destinations' && e.data.changes.some((c) => c.entry.destination === name);
      const isVerified = (e: ApiEvent) =>
        e.event === 'liveRefresh' &&
        e.data.kind === 'verified' &&
        e.data.entries.some((v) => v.entry.destination === name && v.verify?.report.status === 'drifted');
      await until(() => events.slice(from).some((e) => isVerified(e.event)), 10_000);
      stale.push(events.slice(from).find((e) => isChange(e.event))!.at - t);
      drifted.push(events.slice(from).find((e) => isVerified(e.event))!.at - t);
    }
    const watched = TREE_SHAPE.destinations.toLocaleString('en-US');
    return [
      budgetRow(`edit on disk → row stale, ${watched} destinations watched`, stale, 1000),
      budgetRow(`edit on disk → row drifted (auto-verify), ${watched} destinations watched`, drifted, 2000),
    ];
  } finally {
    await session.close();
  }
}

async function until(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export const reverifyBench: Bench = {
  name: 'reverify',
  async run(context) {
    const root = workspaceTree(context);
    return [...(await reverifyRows(context, root)), ...(await liveRows(context, root))];
  },
};
