import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { refusalMessage } from '../../shared/comparisonWords';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { snapshotTree, writeBundle, writeInterruptedStaging, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { HashPool } from '../engine/hashPool';
import { applyReplacePlan } from './applyReplacePlan';
import { compareDestination } from './compareDestination';
import { planDestinationReplace } from './planDestinationReplace';
import { scanEntryOf } from './scanEntry';

let dir: string;
let dest: string;
let source: string;
beforeEach(async () => {
  dir = await tempDirForTest('operations-');
  dest = path.join(dir, 'dest');
  source = path.join(dir, 'src');
});

async function olderDestination() {
  const oldManifest = await writeBundle(path.join(dir, 'old'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
  await writeManagedDestination(dest, { manifest: oldManifest, outputs: { 'report.html': 'old' } });
  await writeBundle(source, { 'report.md': '# New' }, { created: '2026-06-05T09:00:00Z' });
}

describe('compare a destination', () => {
  it('decides, diffs and words the decision with the destination replace policy', async () => {
    await olderDestination();
    const allowed = await compareDestination({ destinationPath: dest, sourcePath: source });
    const denied = await compareDestination({ destinationPath: dest, sourcePath: source, replacePolicy: 'deny' });
    if (!allowed.ok || !denied.ok) throw new Error('the source is usable');
    expect(allowed.value.comparison).toEqual({ decision: 'replace', rule: 6 });
    expect(allowed.value.explanation).toMatchObject({ title: 'Replace', normalReplaceAllowed: true });
    expect(denied.value.explanation).toMatchObject({ title: 'Replace (denied by policy)', normalReplaceAllowed: false });
    expect(allowed.value.diff?.fields.created).toMatchObject({ order: 'newer' });
    expect(allowed.value.recorded?.created).toBe('2026-06-04T11:55:00Z');
  });

  it('verifies the outputs behind a matching manifest: up to date when they match, drifted by name when edited by hand', async () => {
    const manifest = await writeBundle(source, { 'report.md': '# Report' });
    await writeManagedDestination(dest, {
      manifest,
      outputs: { 'report.html': 'report', 'extra/page.html': 'page' },
      extras: { 'notes.txt': 'x' },
    });
    const intact = await compareDestination({ destinationPath: dest, sourcePath: source });
    if (!intact.ok) throw new Error('the source is usable');
    expect(intact.value.comparison).toEqual({ decision: 'skip', rule: 5 });
    expect(intact.value.drift).toEqual({ verifiedCount: 2, drifted: [], extras: ['notes.txt'] });
    expect(intact.value.explanation).toMatchObject({ title: 'Up to date', tone: 'good' });

    await fs.writeFile(path.join(dest, 'report.html'), 'REPORT');
    const drifted = await compareDestination({ destinationPath: dest, sourcePath: source });
    if (!drifted.ok) throw new Error('the source is usable');
    expect(drifted.value.comparison).toEqual({ decision: 'skip', rule: 5 });
    expect(drifted.value.drift?.drifted).toEqual([{ path: 'report.html', status: 'hash_mismatch' }]);
    expect(drifted.value.explanation).toMatchObject({
      title: 'Manifest matches, outputs drifted',
      tone: 'warning',
      normalReplaceAllowed: false,
    });
    expect(drifted.value.explanation.next).toContain(`distributor-inspector repair ${dest}`);
    expect(drifted.value.explanation.next).toContain('the 1 file no state records (notes.txt)');

    // The plan of a normal replace reads the same: nothing to apply, but never "up to date".
    const planned = await planDestinationReplace({ destinationPath: dest, sourcePath: source, mode: 'replace' });
    if (!planned.ok) throw new Error(planned.error.message);
    expect(planned.value.plan.action).toBe('nothing');
    expect(planned.value.plan.comparison?.explanation).toEqual(drifted.value.explanation);
  });

  it('does not verify when the manifest differs: the decision alone words it', async () => {
    await olderDestination();
    const compared = await compareDestination({ destinationPath: dest, sourcePath: source });
    if (!compared.ok) throw new Error('the source is usable');
    expect(compared.value.drift).toBeUndefined();
  });

  it('answers an unusable source with the manifest file and its issues, as data', async () => {
    await fs.mkdir(source, { recursive: true });
    await fs.writeFile(path.join(source, 'manifest.json'), '{"schema_version": 1}');
    const compared = await compareDestination({ destinationPath: dest, sourcePath: source });
    expect(compared.ok).toBe(false);
    if (compared.ok) return;
    expect(compared.error.code).toBe('invalid_source');
    expect(compared.error.details.file).toBe(path.join(source, 'manifest.json'));
    expect(compared.error.details.issues.map((issue) => issue.path[0])).toContain('id');
  });
});

describe('plan a replace', () => {
  it('asks a forced replace to be confirmed with the destination id its new state records, a normal one with none', async () => {
    await olderDestination();
    const normal = await planDestinationReplace({ destinationPath: dest, sourcePath: source, mode: 'replace' });
    const forced = await planDestinationReplace({ destinationPath: dest, sourcePath: source, mode: 'force' });
    const configured = await planDestinationReplace({
      destinationPath: dest,
      sourcePath: source,
      mode: 'force',
      configured: { pipelineId: 'reports', destinationId: 'archive-eu' },
    });
    if (!normal.ok || !forced.ok || !configured.ok) throw new Error('all three plan');
    expect(normal.value.confirmText).toBeUndefined();
    expect(forced.value.confirmText).toBe('archive');
    expect(configured.value.confirmText).toBe('archive-eu');
    expect(configured.value.plan.newState?.destination_id).toBe('archive-eu');
  });

  it('returns a refusal as the one result type', async () => {
    await fs.mkdir(dest, { recursive: true });
    await fs.writeFile(path.join(dest, 'notes.txt'), 'n');
    await writeBundle(source, { 'report.md': '# New' });
    const planned = await planDestinationReplace({ destinationPath: dest, sourcePath: source, mode: 'replace' });
    expect(planned).toMatchObject({ ok: false, error: { code: 'unmanaged' } });
  });
});

describe('Compare and the plan of a normal replace on an interrupted destination', () => {
  /** Compare's verdict and words, then the planner's answer, on the same disk. */
  let pool: HashPool;
  beforeAll(() => {
    pool = new HashPool({ size: 1 });
  });
  afterAll(() => pool.close());

  async function compareThenPlan(replacePolicy: 'allow' | 'deny' = 'allow') {
    const compared = await compareDestination({ destinationPath: dest, sourcePath: source, replacePolicy, pool });
    if (!compared.ok) throw new Error('the source is usable');
    const planned = await planDestinationReplace({ destinationPath: dest, sourcePath: source, mode: 'replace', replacePolicy, pool });
    return { words: compared.value.explanation, planned };
  }

  it('says "Interrupted replace" where the manifests say replace, and the planner refuses with the same words', async () => {
    await olderDestination();
    const folder = path.basename(await writeInterruptedStaging(dest));
    expect(folder).toBe(STAGING_DIR_NAME);
    const before = await snapshotTree(dir);
    const { words, planned } = await compareThenPlan();
    expect(words).toMatchObject({ title: 'Interrupted replace', tone: 'warning', normalReplaceAllowed: false });
    expect(words.sentence).toContain(`A staging folder (${STAGING_DIR_NAME}) from an interrupted replace is in the destination`);
    expect(words.sentence).toContain('Behind it, the comparison says: Replace.');
    expect(words.sentence).not.toContain('replace is allowed');
    expect(words.next).toContain(`distributor-inspector discard-staging ${dest}`);
    expect(planned).toEqual({
      ok: false,
      error: { code: 'interrupted', message: refusalMessage(words), details: { path: STAGING_DIR_NAME } },
    });
    expect(await snapshotTree(dir)).toBe(before);
  });

  it('agrees on every shape of destination, with and without a staging folder, under either policy', async () => {
    const shapes: Record<string, () => Promise<void>> = {
      older: olderDestination,
      same: async () => {
        const manifest = await writeBundle(source, { 'report.md': '# Same' });
        await writeManagedDestination(dest, { manifest, outputs: { 'report.html': 'same' } });
      },
      newer: async () => {
        const manifest = await writeBundle(path.join(dir, 'newer'), { 'report.md': '# Newer' }, { created: '2026-07-01T00:00:00Z' });
        await writeManagedDestination(dest, { manifest, outputs: { 'report.html': 'newer' } });
        await writeBundle(source, { 'report.md': '# Older' }, { created: '2026-06-01T00:00:00Z' });
      },
      unmanaged: async () => {
        await fs.mkdir(dest, { recursive: true });
        await fs.writeFile(path.join(dest, 'notes.txt'), 'n');
        await writeBundle(source, { 'report.md': '# New' });
      },
      conflict: async () => {
        const manifest = await writeBundle(path.join(dir, 'other'), { 'report.md': '# Other' }, { id: 'other.example' });
        await writeManagedDestination(dest, { manifest, outputs: { 'report.html': 'other' } });
        await writeBundle(source, { 'report.md': '# New' });
      },
    };
    for (const [shape, write] of Object.entries(shapes)) {
      for (const interrupted of [false, true]) {
        for (const policy of ['allow', 'deny'] as const) {
          await fs.rm(dir, { recursive: true, force: true });
          await fs.mkdir(dir, { recursive: true });
          await write();
          if (interrupted) await writeInterruptedStaging(dest);
          const { words, planned } = await compareThenPlan(policy);
          const where = `${shape}, ${interrupted ? 'interrupted' : 'no staging'}, policy ${policy}`;
          const plannedReplace = planned.ok && planned.value.plan.action === 'replace';
          expect(plannedReplace, where).toBe(words.normalReplaceAllowed);
          expect(words.title === 'Interrupted replace', where).toBe(interrupted);
          if (!planned.ok) expect(planned.error.message, where).toBe(refusalMessage(words));
          else expect(planned.value.plan.comparison?.explanation, where).toEqual(words);
        }
      }
    }
  }, 120_000);
});

describe('apply a plan', () => {
  it('returns the ApplyResult and the destination as it is now, also for a stale plan', async () => {
    await olderDestination();
    const planned = await planDestinationReplace({ destinationPath: dest, sourcePath: source, mode: 'replace' });
    if (!planned.ok) throw new Error('plans');
    await fs.writeFile(path.join(dest, 'report.html'), 'changed after the plan');
    const stale = await applyReplacePlan(planned.value.plan);
    expect(stale.result).toMatchObject({ ok: false, changed: false, stateWritten: false, error: { code: 'stale_plan' } });
    expect(stale.inspection?.status).toBe('managed');

    const again = await planDestinationReplace({ destinationPath: dest, sourcePath: source, mode: 'replace' });
    if (!again.ok) throw new Error('plans');
    const done = await applyReplacePlan(again.value.plan);
    expect(done.result).toMatchObject({ ok: true, stateWritten: true, stagingLeft: false });
    expect(done.inspection?.stateSha256).toBe(done.result.stateSha256);
    const entry = scanEntryOf('dest', done.inspection!);
    expect(entry).toMatchObject({ destination: 'dest', summary: { status: 'managed', outputCount: 1, errorCount: 0 } });
    expect(entry.inspection).not.toHaveProperty('state');
    expect(JSON.parse(await fs.readFile(path.join(dest, STATE_FILE_NAME), 'utf8')).source.manifest.created).toBe('2026-06-05T09:00:00Z');
  });
});
