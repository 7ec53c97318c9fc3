// A plan applied at once (replace --yes: planReplace keepVerified): a large file published as it is is
// checked by the plan but hashed only once, by the apply's copy, which fails before anything old is
// touched when its bytes are not the manifest's. Real files in a temp folder.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyPlan } from './applyPlan';
import { planReplace } from './planReplace';
import type { VerifiedOutputs } from './publish';
import { snapshotTree, stateInvariantProblems, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';

let root: string;
let dest: string;
let source: string;

beforeEach(async () => {
  root = await tempDirForTest('apply-at-once-');
  dest = path.join(root, 'dest');
  source = path.join(root, 'source');
});

const OLD = { id: 'reports.example', created: '2026-06-04T11:55:00Z' };
const NEW = { id: 'reports.example', created: '2026-06-05T09:00:00Z' };
// Past the synchronous read (1 MiB): streamed (sourceFile.ts isStreamedSource).
const BIG = `${'0123456789abcdef'.repeat(150_000)}end`;
const BIG_SPOILED = `1${BIG.slice(1)}`;

async function fixture(): Promise<void> {
  const oldManifest = await writeBundle(path.join(root, 'old-source'), { 'report.md': '# Old' }, OLD);
  await writeManagedDestination(dest, { manifest: oldManifest, outputs: { 'report.html': '<p>old</p>' } });
  await writeBundle(source, { 'report.md': '# Report', 'media/big.bin': BIG }, NEW);
}

async function planAtOnce() {
  const verified: VerifiedOutputs = new Map();
  const outcome = await planReplace({ destinationPath: dest, sourcePath: source, mode: 'replace', keepVerified: verified });
  return { outcome, verified };
}

describe('a plan applied at once, with a large file published as it is', () => {
  it('publishes the large file byte for byte, hashed by the copy, the small output from the held bytes', async () => {
    await fixture();
    const { outcome, verified } = await planAtOnce();
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect([...verified.keys()]).toEqual(['report.html']);
    const result = await applyPlan(outcome.value, { verified });
    expect(result.error).toBeUndefined();
    expect(await fs.readFile(path.join(dest, 'media/big.bin'), 'utf8')).toBe(BIG);
    expect(await stateInvariantProblems(dest)).toEqual([]);
  });

  it('plans without hashing it, and the apply fails with source_changed naming it when its bytes are not the manifest’s, nothing old touched', async () => {
    await fixture();
    await fs.writeFile(path.join(source, 'media/big.bin'), BIG_SPOILED);
    const { outcome, verified } = await planAtOnce();
    // The same size: only a hash tells, and the plan leaves the hash to the copy.
    if (!outcome.ok) throw new Error(outcome.error.message);
    const before = await snapshotTree(root);
    const result = await applyPlan(outcome.value, { verified });
    expect(result.error?.code).toBe('source_changed');
    expect(result.error?.message).toMatch(
      /media\/big\.bin does not match its manifest: .*; the source is not what the plan expects: plan again$/,
    );
    expect(result.oldTouched).toBe(false);
    expect(result.stagingLeft).toBe(false);
    expect(await snapshotTree(root)).toBe(before);
  });

  it('still refuses at plan time a large file that is not of its manifest’s size, or a link', async () => {
    await fixture();
    await fs.appendFile(path.join(source, 'media/big.bin'), 'more');
    const grown = await planAtOnce();
    expect(grown.outcome.ok || grown.outcome.error).toMatchObject({ code: 'source_mismatch', details: { path: 'media/big.bin' } });
    await fs.writeFile(path.join(root, 'copy.bin'), BIG);
    await fs.rm(path.join(source, 'media/big.bin'));
    await fs.symlink(path.join(root, 'copy.bin'), path.join(source, 'media/big.bin'));
    const linked = await planAtOnce();
    expect(linked.outcome.ok || linked.outcome.error).toMatchObject({ code: 'source_is_symlink' });
  });
});
