import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import type { StatCacheFile } from '../../shared/verifyFreshnessCache';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import { HashPool } from './hashPool';
import { scanWorkspace, type ScannedDestination } from './scan';
import { StatCache } from './statCache';
import { loadWorkspace, type LoadedWorkspace } from './workspace';

let dir: string;
let cacheFile: string;
let pool: HashPool;
const removals: (() => Promise<void>)[] = [];
beforeEach(async () => {
  const workspace = await makeTempDir('reverify-test');
  const state = await makeTempDir('reverify-cache');
  removals.push(workspace.remove, state.remove);
  dir = workspace.dir;
  cacheFile = path.join(state.dir, 'verify-stat-cache.json');
  pool = new HashPool({ size: 2 });
});
afterEach(async () => {
  await pool.close();
  for (const remove of removals.splice(0)) await remove();
});

const SECOND_NS = 1_000_000_000n;
/** A past moment, one second apart per call: an edit stamped with it never shares a timestamp with the one before. */
let past = 1_600_000_000;
const stampPast = (file: string) => utimesSync(file, past, (past += 1));

function writeTree(): void {
  writeManagedDestination(path.join(dir, 'alpha'), { 'index.html': 'alpha home', 'guide/assets/logo.png': 'alpha logo' });
  writeManagedDestination(path.join(dir, 'beta'), { 'index.html': 'beta home', 'a.css': 'beta css' });
  writeManagedDestination(path.join(dir, 'gamma'), { 'deep/er/page.html': 'gamma page' });
}

async function workspace(): Promise<LoadedWorkspace> {
  const load = await loadWorkspace(dir);
  if (!load.ok) throw new Error(load.issues.map((issue) => issue.message).join('; '));
  return load.workspace;
}

/** Verifies through `cache`, as the app's verify and the benchmark do. */
async function reverify(cache: StatCache): Promise<ScannedDestination[]> {
  return (await scanWorkspace(await workspace(), { pool, verify: true, retain: 'summary', statCache: cache })).rows;
}

/** The rows a verify without any cache gives: every state file read, every output hashed. */
async function fullVerify(): Promise<Omit<ScannedDestination, 'hashedFiles'>[]> {
  return (await scanWorkspace(await workspace(), { pool, verify: true, retain: 'summary' })).rows;
}

const withoutCounts = (rows: ScannedDestination[]) => rows.map(({ hashedFiles: _hashed, ...row }) => row);

/** The cache file as saved. */
const saved = (): StatCacheFile => JSON.parse(readFileSync(cacheFile, 'utf8')) as StatCacheFile;

/**
 * A fake clock for the racy rule: every read the saved cache records is moved `shiftNs` later, as if
 * it had been taken that long after the files were written (the real clock would need a 2 s wait).
 */
async function loadShifted(shiftNs: bigint = 10n * SECOND_NS): Promise<StatCache> {
  const file = saved();
  const later = (at: string) => String(BigInt(at) + shiftNs);
  for (const destination of Object.values(file.destinations)) {
    for (const entry of Object.values(destination.outputs)) entry[2] = later(entry[2]);
    if (destination.state) destination.state.file[2] = later(destination.state.file[2]);
  }
  writeFileSync(cacheFile, JSON.stringify(file));
  const { cache, discarded } = await StatCache.load(cacheFile);
  expect(discarded).toBeUndefined();
  return cache;
}

async function firstVerify(): Promise<void> {
  const { cache } = await StatCache.load(cacheFile);
  await reverify(cache);
  await cache.save();
}

const stateReadAt = (cache: StatCache, name: string) => cache.state(path.join(dir, name))?.file[2];

describe('re-verify through the stat cache', () => {
  it('proves unchanged destinations by stats alone: no state file read, no output hashed, the rows a full verify gives', async () => {
    writeTree();
    await firstVerify();
    const cache = await loadShifted();
    const readAt = ['alpha', 'beta', 'gamma'].map((name) => stateReadAt(cache, name));
    expect(readAt.every((at) => at !== undefined)).toBe(true);
    const rows = await reverify(cache);
    expect(rows.map((row) => row.hashedFiles)).toEqual([0, 0, 0]);
    // A state file read again would have recorded the moment of its new read.
    expect(['alpha', 'beta', 'gamma'].map((name) => stateReadAt(cache, name))).toEqual(readAt);
    expect(withoutCounts(rows)).toEqual(await fullVerify());
    expect(rows.map((row) => row.verify?.status)).toEqual(['intact', 'intact', 'intact']);
  });

  it('reads again a state file edited since, even at the same size and modification time', async () => {
    writeTree();
    await firstVerify();
    const cache = await loadShifted();
    const file = path.join(dir, 'beta', STATE_FILE_NAME);
    const before = lstatSync(file);
    const text = readFileSync(file, 'utf8');
    // One hex digit of the first output's recorded hash, swapped: the same size, another record.
    const at = text.indexOf('"sha256": "sha256:', text.indexOf('"outputs"')) + '"sha256": "sha256:'.length;
    const edited = text.slice(0, at) + (text[at] === '0' ? '1' : '0') + text.slice(at + 1);
    expect(edited.length).toBe(text.length);
    writeFileSync(file, edited);
    utimesSync(file, before.atime, before.mtime);
    expect(lstatSync(file).size).toBe(before.size);
    const rows = await reverify(cache);
    expect(stateReadAt(cache, 'beta')).not.toBe(saved().destinations[path.join(dir, 'beta')]!.state!.file[2]);
    expect(withoutCounts(rows)).toEqual(await fullVerify());
    expect(rows.map((row) => row.verify?.status)).toEqual(['intact', 'drifted', 'intact']);
  });

  it('reads again a state file replaced by another of the same size and times (a new inode)', async () => {
    writeTree();
    await firstVerify();
    const cache = await loadShifted();
    const file = path.join(dir, 'alpha', STATE_FILE_NAME);
    const before = lstatSync(file);
    const copy = path.join(dir, 'alpha', 'copy.tmp');
    writeFileSync(copy, readFileSync(file, 'utf8').replace('"reports"', '"REPORTS"'));
    utimesSync(copy, before.atime, before.mtime);
    renameSync(copy, file);
    expect(lstatSync(file).ino).not.toBe(before.ino);
    const rows = await reverify(cache);
    expect(rows[0]!.summary.pipeline_id).toBe('REPORTS');
    expect(withoutCounts(rows)).toEqual(await fullVerify());
  });

  it('reads again a state file whose timestamps are within the racy margin of its last read', async () => {
    writeTree();
    await firstVerify();
    // The cache says: the state file was read in the very tick it was last written.
    const file = saved();
    const key = path.join(dir, 'gamma');
    const ctimeNs = lstatSync(path.join(key, STATE_FILE_NAME), { bigint: true }).ctimeNs;
    for (const destination of Object.values(file.destinations)) {
      for (const entry of Object.values(destination.outputs)) entry[2] = String(BigInt(entry[2]) + 10n * SECOND_NS);
      destination.state!.file[2] = String(BigInt(destination.state!.file[2]) + 10n * SECOND_NS);
    }
    file.destinations[key]!.state!.file[2] = String(ctimeNs + 1_000_000n);
    writeFileSync(cacheFile, JSON.stringify(file));
    const { cache } = await StatCache.load(cacheFile);
    expect(cache.vouched(key)).toBeUndefined();
    expect(cache.vouched(path.join(dir, 'alpha'))).toBeDefined();
    const rows = await reverify(cache);
    expect(stateReadAt(cache, 'gamma')).not.toBe(String(ctimeNs + 1_000_000n));
    expect(stateReadAt(cache, 'alpha')).toBe(file.destinations[path.join(dir, 'alpha')]!.state!.file[2]);
    expect(withoutCounts(rows)).toEqual(await fullVerify());
  });

  it('says what a full verify says, whatever is done to the destinations between re-verifies (property)', async () => {
    const operation = fc.record({
      destination: fc.constantFrom('alpha', 'beta', 'gamma'),
      kind: fc.constantFrom(
        'edit_output',
        'remove_output',
        'output_to_folder',
        'add_extra',
        'add_nested_extra',
        'state_invalid',
        'state_removed',
        'staging_folder',
        'touch_state',
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 5 }), async (operations) => {
        rmSync(dir, { recursive: true, force: true });
        rmSync(cacheFile, { force: true });
        mkdirSync(dir);
        writeTree();
        await firstVerify();
        for (const { destination, kind } of operations) {
          const root = path.join(dir, destination);
          const output = destination === 'gamma' ? 'deep/er/page.html' : 'index.html';
          const state = path.join(root, STATE_FILE_NAME);
          if (kind === 'edit_output' && statSync(path.join(root, output), { throwIfNoEntry: false })?.isFile()) {
            writeFileSync(path.join(root, output), 'EDITED');
            stampPast(path.join(root, output));
          }
          if (kind === 'remove_output') rmSync(path.join(root, output), { recursive: true, force: true });
          if (kind === 'output_to_folder') {
            rmSync(path.join(root, output), { recursive: true, force: true });
            mkdirSync(path.join(root, output), { recursive: true });
          }
          if (kind === 'add_extra') writeFileSync(path.join(root, `extra-${past}.txt`), 'extra');
          if (kind === 'add_nested_extra') {
            mkdirSync(path.join(root, 'guide'), { recursive: true });
            writeFileSync(path.join(root, 'guide', `extra-${past}.txt`), 'extra');
          }
          if (kind === 'state_invalid') writeFileSync(state, '{"schema_version": 1}');
          if (kind === 'state_removed') rmSync(state, { force: true });
          if (kind === 'staging_folder') mkdirSync(path.join(root, '.distributor-staging'), { recursive: true });
          if (kind === 'touch_state' && statSync(state, { throwIfNoEntry: false })?.isFile()) stampPast(state);
          past += 1;
          // Time passes before each re-verify: what the last one read is settled, unless its stats moved.
          const cache = await loadShifted();
          const rows = await reverify(cache);
          await cache.save();
          expect(withoutCounts(rows)).toEqual(await fullVerify());
        }
      }),
      { numRuns: 12 },
    );
  });
});
