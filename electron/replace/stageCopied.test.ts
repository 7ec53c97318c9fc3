// A large output published as it is, past the kernel copy's threshold (lowered here to 2 MiB): staged by the kernel's copy and then
// read back from the staging folder and hashed (stageOutputs.ts stageCopied). What is published is
// what was hashed: a source spoiled between plan and apply fails with source_changed before anything
// old is touched, and the output's mode is the one every staged file gets, not the source's. Real files.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyPlan } from './applyPlan';
import { canCopyInKernel } from './kernelCopy';
import { planReplace } from './planReplace';
import type { VerifiedOutputs } from './publish';
import { snapshotTree, stateInvariantProblems, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';

let root: string;
let dest: string;
let source: string;

beforeEach(async () => {
  root = await tempDirForTest('stage-copied-');
  dest = path.join(root, 'dest');
  source = path.join(root, 'source');
});

const OLD = { id: 'media.example', created: '2026-06-04T11:55:00Z' };
const NEW = { id: 'media.example', created: '2026-06-05T09:00:00Z' };
// The threshold is 768 MiB; the path is the same from any size, so these run it on 2 MiB.
const COPY_FROM_BYTES = 2 * 1024 * 1024;
const BIG = `${'0123456789abcdef'.repeat(COPY_FROM_BYTES / 16)}end`;

async function fixture(): Promise<void> {
  const oldManifest = await writeBundle(path.join(root, 'old-source'), { 'report.md': '# Old' }, OLD);
  await writeManagedDestination(dest, { manifest: oldManifest, outputs: { 'report.html': '<p>old</p>' } });
  await writeBundle(source, { 'report.md': '# Report', 'media/big.bin': BIG }, NEW);
}

async function planAndApply(keepVerified: boolean, beforeApply?: () => Promise<void>) {
  const verified: VerifiedOutputs = new Map();
  const outcome = await planReplace({
    destinationPath: dest,
    sourcePath: source,
    mode: 'replace',
    ...(keepVerified ? { keepVerified: verified } : {}),
  });
  if (!outcome.ok) throw new Error(outcome.error.message);
  await beforeApply?.();
  const before = await snapshotTree(root);
  const progress: number[] = [];
  const result = await applyPlan(outcome.value, {
    kernelCopyMinBytes: COPY_FROM_BYTES,
    ...(keepVerified ? { verified } : {}),
    onProgress: (event) => void (event.phase === 'stage' && event.path === 'media/big.bin' && progress.push(event.bytes)),
  });
  return { result, before, progress };
}

describe.skipIf(!canCopyInKernel())('a large output staged by the kernel’s copy', () => {
  it('is published byte for byte with the mode of every staged file, and its hashing reports progress', async () => {
    await fixture();
    await fs.chmod(path.join(source, 'media/big.bin'), 0o600);
    const { result, progress } = await planAndApply(true);
    expect(result.error).toBeUndefined();
    expect(await fs.readFile(path.join(dest, 'media/big.bin'), 'utf8')).toBe(BIG);
    expect((await fs.stat(path.join(dest, 'media/big.bin'))).mode & 0o777).toBe(0o644 & ~process.umask());
    expect(progress.length).toBeGreaterThan(1);
    expect(await stateInvariantProblems(dest)).toEqual([]);
  });

  it.each([
    ['applied at once (its plan never hashed it)', true],
    ['applied later (its plan hashed it)', false],
  ])('fails with source_changed naming it when its bytes changed after the plan, nothing old touched: %s', async (_name, atOnce) => {
    await fixture();
    const { result, before } = await planAndApply(atOnce, () => fs.writeFile(path.join(source, 'media/big.bin'), `1${BIG.slice(1)}`));
    expect(result.error?.code).toBe('source_changed');
    expect(result.error?.message).toMatch(
      /media\/big\.bin does not match its manifest: .*; the source is not what the plan expects: plan again$/,
    );
    expect(result.oldTouched).toBe(false);
    expect(result.stagingLeft).toBe(false);
    expect(await snapshotTree(root)).toBe(before);
  });

  it('fails with source_changed when the file grew after the plan, and when it became a link', async () => {
    await fixture();
    const grown = await planAndApply(true, () => fs.appendFile(path.join(source, 'media/big.bin'), 'more'));
    expect(grown.result.error?.code).toBe('source_changed');
    expect(await snapshotTree(root)).toBe(grown.before);
    await fs.writeFile(path.join(source, 'media/big.bin'), BIG);
    await fs.writeFile(path.join(root, 'copy.bin'), BIG);
    const linked = await planAndApply(true, async () => {
      await fs.rm(path.join(source, 'media/big.bin'));
      await fs.symlink(path.join(root, 'copy.bin'), path.join(source, 'media/big.bin'));
    });
    expect(linked.result.error?.code).toBe('source_changed');
    expect(await snapshotTree(root)).toBe(linked.before);
  });
});
