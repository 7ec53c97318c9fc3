import { renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync, mkdirSync, lstatSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CachedOutput } from '../../shared/verifyFreshnessCache';
import { statSignature } from '../../shared/verifyFreshnessStat';
import { makeTempDir } from '../testing/fixtureTrees';
import { currentOutputsDigest, recordedOutputsDigest } from './outputSignatures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const SHA = `sha256:${'a'.repeat(64)}`;
const PAST = 1_700_000_000;

/** A destination with two nested outputs, and the cache entries a verify would have recorded for them. */
async function setup() {
  const { dir, remove } = await makeTempDir('output-signatures');
  cleanups.push(remove);
  mkdirSync(path.join(dir, 'guide', 'assets'), { recursive: true });
  const files = ['index.html', 'guide/assets/logo.png'];
  for (const file of files) {
    writeFileSync(path.join(dir, file), `bytes of ${file}`);
    utimesSync(path.join(dir, file), PAST, PAST);
  }
  const recorded = (): Record<string, CachedOutput> =>
    Object.fromEntries(files.map((file) => [file, [statSignature(lstatSync(path.join(dir, file), { bigint: true })), SHA, '1']]));
  return { dir, known: recorded() };
}

describe('the outputs part of a fingerprint', () => {
  it('is the same now as recorded while no output moved, whatever order the cache keeps', async () => {
    const { dir, known } = await setup();
    const reversed = Object.fromEntries(Object.entries(known).reverse());
    expect(currentOutputsDigest(dir, reversed)).toBe(recordedOutputsDigest(known));
  });

  it('differs after an edit in place that keeps the size', async () => {
    const { dir, known } = await setup();
    const file = path.join(dir, 'guide', 'assets', 'logo.png');
    const size = statSync(file).size;
    writeFileSync(file, 'X'.repeat(size));
    expect(currentOutputsDigest(dir, known)).not.toBe(recordedOutputsDigest(known));
  });

  it('differs for a file replaced by another of the same size and mtime (a new inode)', async () => {
    const { dir, known } = await setup();
    const file = path.join(dir, 'guide', 'assets', 'logo.png');
    const temp = `${file}.tmp`;
    writeFileSync(temp, 'X'.repeat(statSync(file).size));
    utimesSync(temp, PAST, PAST);
    renameSync(temp, file);
    expect(statSync(file).mtimeMs).toBe(PAST * 1000);
    expect(currentOutputsDigest(dir, known)).not.toBe(recordedOutputsDigest(known));
  });

  it('differs for an output removed or replaced by a link, without following the link', async () => {
    const { dir, known } = await setup();
    const file = path.join(dir, 'index.html');
    rmSync(file);
    const gone = currentOutputsDigest(dir, known);
    expect(gone).not.toBe(recordedOutputsDigest(known));
    symlinkSync(path.join(dir, 'guide', 'assets', 'logo.png'), file);
    expect(currentOutputsDigest(dir, known)).not.toBe(recordedOutputsDigest(known));
  });
});
