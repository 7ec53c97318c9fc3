// A failed apply leaves nothing behind: a failure before the first delete (no space, no permission,
// a name too long, an I/O error) leaves the destination exactly as it was, with no staging folder,
// and a publish into a missing destination leaves no folder. Names too long are refused when planning.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyAftermathText, type ReplaceMode } from '../../shared/plan';
import { inspectDestination } from '../engine/inspectDestination';
import { applyPlan } from './applyPlan';
import { nodeFsOps } from './fsOps';
import { planReplace } from './planReplace';
import { countingFsOps, faultyFsOps, type InjectedErrno } from '../testing/countingFsOps';
import { snapshotTree, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';

let root: string;
beforeEach(async () => {
  root = await tempDirForTest('failure-');
});

/** A 255-byte name ending in .md: the longest a file system takes, and 257 bytes once it ends in .html. */
const LONG_MD = `${'n'.repeat(252)}.md`;

async function managed(dest: string) {
  const manifest = await writeBundle(path.join(root, 'old'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
  await writeManagedDestination(dest, { manifest, outputs: { 'report.html': 'old' }, extras: { 'notes.txt': 'mine' } });
}

describe('names too long for the file system', () => {
  it('refuses at plan time a 255-byte .md name that would become a 257-byte .html name, naming the source file', async () => {
    const dest = path.join(root, 'dest');
    await managed(dest);
    await writeBundle(path.join(root, 'source'), { [LONG_MD]: '# Long', 'ok.txt': 'ok' }, { created: '2026-06-05T09:00:00Z' });
    const before = await snapshotTree(root);
    for (const mode of ['replace', 'force'] as const) {
      const outcome = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode });
      expect(outcome.ok ? undefined : outcome.error, mode).toMatchObject({
        code: 'name_too_long',
        details: { source_path: LONG_MD, length: 257, limit: 255 },
      });
    }
    expect(await snapshotTree(root)).toBe(before);
  });

  it.each(['replace', 'force'] as ReplaceMode[])(
    'a %s that meets a real ENAMETOOLONG while staging leaves the destination exactly as it was',
    async (mode) => {
      const dest = path.join(root, 'dest');
      await managed(dest);
      await writeBundle(path.join(root, 'source'), { 'a.txt': 'a', [LONG_MD]: '# Long' }, { created: '2026-06-05T09:00:00Z' });
      // The plan-time check lifted: what apply does when the disk itself says no.
      const outcome = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode, nameMax: 10_000 });
      if (!outcome.ok) throw new Error(outcome.error.message);
      const before = await snapshotTree(dest);
      const result = await applyPlan(outcome.value);
      expect(result.error?.details?.errno).toBe('ENAMETOOLONG');
      expect(result.stagingLeft).toBe(false);
      expect(result.changed).toBe(false);
      expect(await snapshotTree(dest)).toBe(before);
    },
  );

  it('a publish into a missing destination that meets ENAMETOOLONG leaves no folder', async () => {
    const dest = path.join(root, 'new-dest');
    await writeBundle(path.join(root, 'source'), { [LONG_MD]: '# Long' });
    const outcome = await planReplace({
      destinationPath: dest,
      sourcePath: path.join(root, 'source'),
      mode: 'replace',
      configured: { pipelineId: 'p', destinationId: 'd' },
      nameMax: 10_000,
    });
    if (!outcome.ok) throw new Error(outcome.error.message);
    const result = await applyPlan(outcome.value);
    expect(result.error?.details?.errno).toBe('ENAMETOOLONG');
    await expect(fs.lstat(dest)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('every injected failure before the first delete', () => {
  const CODES: InjectedErrno[] = ['ENOSPC', 'EACCES', 'ENAMETOOLONG', 'EIO'];

  it.each(CODES)('%s: a publish into a missing destination leaves no folder, whichever mutation fails', async (code) => {
    const dest = path.join(root, `dest-${code}`);
    await writeBundle(path.join(root, 'source'), { 'index.md': '# Home', 'docs/a.txt': 'a' });
    const plan = async () => {
      const outcome = await planReplace({
        destinationPath: dest,
        sourcePath: path.join(root, 'source'),
        mode: 'replace',
        configured: { pipelineId: 'p', destinationId: 'd' },
      });
      if (!outcome.ok) throw new Error(outcome.error.message);
      return outcome.value;
    };
    // Count the mutations up to the first that writes into place (the first "delete" of a publish).
    const phases: string[] = [];
    const counter = countingFsOps(nodeFsOps);
    await applyPlan(await plan(), { fs: counter, onProgress: (event) => phases.push(event.phase) });
    const total = counter.count();
    await fs.rm(dest, { recursive: true });
    for (let failStep = 1; failStep <= total; failStep++) {
      const seen: string[] = [];
      const result = await applyPlan(await plan(), {
        fs: faultyFsOps(nodeFsOps, failStep, code),
        onProgress: (event) => seen.push(event.phase),
      });
      expect(result.error?.details?.errno, `${code} at ${failStep}`).toBe(code);
      if (String(result.error?.details?.phase) === 'stage') {
        await expect(fs.lstat(dest), `${code} at ${failStep}`).rejects.toMatchObject({ code: 'ENOENT' });
        expect(result.stagingLeft).toBe(false);
      } else {
        await fs.rm(dest, { recursive: true, force: true });
      }
    }
  });

  it.each(CODES)('%s: a managed destination is left exactly as it was, staging folder gone', async (code) => {
    const dest = path.join(root, `dest-${code}`);
    await managed(dest);
    await writeBundle(path.join(root, 'source'), { 'report.md': '# New', 'docs/a.txt': 'a' }, { created: '2026-06-05T09:00:00Z' });
    const before = await snapshotTree(dest);
    for (let failStep = 1; failStep <= 6; failStep++) {
      const outcome = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode: 'replace' });
      if (!outcome.ok) throw new Error(outcome.error.message);
      const result = await applyPlan(outcome.value, { fs: faultyFsOps(nodeFsOps, failStep, code) });
      expect(result.error?.details?.phase, `${code} at ${failStep}`).toBe('stage');
      expect(result.stagingLeft, `${code} at ${failStep}`).toBe(false);
      expect(await snapshotTree(dest), `${code} at ${failStep}`).toBe(before);
    }
  });
});

describe('what a failed apply says it left', () => {
  it('ENOSPC while staging whose cleanup also fails says the old state and outputs are untouched, never "no valid new state"', async () => {
    const dest = path.join(root, 'dest');
    await managed(dest);
    await writeBundle(path.join(root, 'source'), { 'report.md': '# New', 'docs/a.txt': 'a' }, { created: '2026-06-05T09:00:00Z' });
    const outcome = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode: 'replace' });
    if (!outcome.ok) throw new Error(outcome.error.message);
    // The 4th mutation is a staged write; the removal of the staging folder then fails too.
    const faulty = faultyFsOps(nodeFsOps, 4, 'ENOSPC');
    const result = await applyPlan(outcome.value, {
      fs: { ...faulty, removeTree: async () => Promise.reject(Object.assign(new Error('EIO: injected'), { code: 'EIO' })) },
    });
    expect(result).toMatchObject({ ok: false, changed: true, oldTouched: false, stateWritten: false, stagingLeft: true });
    expect(result.error?.details).toMatchObject({ errno: 'ENOSPC', phase: 'stage' });
    const words = applyAftermathText(result);
    expect(words).toBe(
      'The old state and outputs are untouched: it stopped before anything that was there was removed or moved; only its staging folder was left behind.',
    );
    expect(words).not.toContain('no valid new state');
    // And it is true: the old state still verifies as the managed one.
    expect((await inspectDestination(dest)).status).toBe('managed');
  });

  it('a failure after the old state was removed still says there is no valid new state yet', async () => {
    const dest = path.join(root, 'dest');
    await managed(dest);
    await writeBundle(path.join(root, 'source'), { 'report.md': '# New' }, { created: '2026-06-05T09:00:00Z' });
    const outcome = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode: 'replace' });
    if (!outcome.ok) throw new Error(outcome.error.message);
    const phases: { step: number; op: string }[] = [];
    const probe = countingFsOps(nodeFsOps, (step, op, target) => void phases.push({ step, op: `${op} ${target}` }));
    await applyPlan(outcome.value, { fs: probe });
    // Fail the first mutation after the state's unlink (the delete of the old output).
    const unlinkState = phases.find((entry) => entry.op.startsWith('unlink') && entry.op.endsWith('.distributor.json'))!.step;
    await fs.rm(dest, { recursive: true });
    await managed(dest);
    await writeBundle(path.join(root, 'source2'), { 'report.md': '# New' }, { created: '2026-06-05T09:00:00Z' });
    const again = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source2'), mode: 'replace' });
    if (!again.ok) throw new Error(again.error.message);
    const result = await applyPlan(again.value, { fs: faultyFsOps(nodeFsOps, unlinkState + 2, 'EIO') });
    expect(result).toMatchObject({ ok: false, changed: true, oldTouched: true, stateWritten: false });
    expect(applyAftermathText(result)).toMatch(/the destination has no valid new state yet\.$/);
  });
});
