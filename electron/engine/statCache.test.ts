import { createHash } from 'node:crypto';
import { promises as fs, lstatSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  boundedDestinations,
  STAT_CACHE_FORMAT,
  type CachedDestination,
  type CachedOutput,
  type CachedState,
} from '../../shared/verifyFreshnessCache';
import { RACY_MARGIN_NS, statSignature } from '../../shared/verifyFreshnessStat';
import type { HashCache } from './cachedHash';
import type { Hasher } from './hashTask';
import { verifyHere, type RecordedOutput } from './judgeOutputs';
import { StatCache } from './statCache';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'di-statcache-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const hasher = (): Hasher => ({ buffer: Buffer.alloc(64 * 1024), checkedDirs: new Set(), onBytes: () => undefined });
const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const SECOND_NS = 1_000_000_000n;
/** A clock this far past the files' timestamps: the racy rule does not hold their hashes back. */
const later = () => BigInt(Date.now()) * 1_000_000n + 10n * SECOND_NS;

async function destination(files: Record<string, string>): Promise<RecordedOutput[]> {
  for (const [name, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), text);
  }
  return Object.entries(files).map(([name, text]) => ({ path: name, size: Buffer.byteLength(text), sha256: sha(text) }));
}

/** Verifies `dir` through a cache that knew `known`; the report, what it saw, and how many files it read. */
function verify(outputs: RecordedOutput[], known: Record<string, CachedOutput> | undefined, nowNs?: () => bigint) {
  const cache: HashCache = { known, seen: {}, hashed: 0, ...(nowNs ? { nowNs } : {}) };
  const report = verifyHere(dir, outputs, hasher(), undefined, cache);
  return { report, seen: cache.seen, hashed: cache.hashed };
}

const signatureOf = (name: string) => statSignature(lstatSync(path.join(dir, name), { bigint: true }));

describe('verify through the stat cache', () => {
  it('reads no file again when nothing changed, and says the same as a verify without it', async () => {
    const outputs = await destination({ 'index.html': 'home', 'guide/install.html': 'install', 'assets/logo.png': 'png' });
    const first = verify(outputs, undefined, later);
    expect(first.hashed).toBe(3);
    const second = verify(outputs, first.seen, later);
    expect(second.hashed).toBe(0);
    expect(second.report).toEqual(verifyHere(dir, outputs, hasher()));
    expect(second.report.status).toBe('intact');
  });

  it('reads again an output edited in place, even at the same size', async () => {
    const outputs = await destination({ 'index.html': 'home', 'guide/install.html': 'install' });
    const first = verify(outputs, undefined, later);
    await fs.writeFile(path.join(dir, 'guide/install.html'), 'INSTALL');
    const second = verify(outputs, first.seen, later);
    expect(second.hashed).toBe(1);
    expect(second.report.outputs.find((output) => output.path === 'guide/install.html')?.status).toBe('hash_mismatch');
  });

  it('reads again a file replaced by another with the same size and modification time but a new inode', async () => {
    const outputs = await destination({ 'page.html': 'aaaa' });
    const first = verify(outputs, undefined, later);
    const before = lstatSync(path.join(dir, 'page.html'));
    await fs.writeFile(path.join(dir, 'other.tmp'), 'bbbb');
    await fs.utimes(path.join(dir, 'other.tmp'), before.atime, before.mtime);
    await fs.rename(path.join(dir, 'other.tmp'), path.join(dir, 'page.html'));
    const after = lstatSync(path.join(dir, 'page.html'), { bigint: true });
    expect(after.size).toBe(BigInt(before.size));
    expect(after.ino).not.toBe(BigInt(before.ino));
    const second = verify(outputs, first.seen, later);
    expect(second.hashed).toBe(1);
    expect(second.report.status).toBe('drifted');
  });

  it('does not trust a hash taken within the same clock tick as the file’s timestamps (racily clean)', async () => {
    const outputs = await destination({ 'page.html': 'new bytes' });
    const signature = signatureOf('page.html');
    const mtimeNs = lstatSync(path.join(dir, 'page.html'), { bigint: true }).mtimeNs;
    // The cache says: at this very signature the bytes were the old ones, hashed in the same tick
    // as the write that followed (which left size, times and inode as they were).
    const stale = sha('old bytes');
    const inTheTick: CachedOutput = [signature, stale, String(mtimeNs + 1_000_000n)];
    const read = verify(outputs, { 'page.html': inTheTick });
    expect(read.hashed).toBe(1);
    expect(read.report.status).toBe('intact');
    expect(read.seen['page.html']?.[1]).toBe(sha('new bytes'));
    // The same entry, hashed well after the timestamps: trusted (so the rule, not chance, read it above).
    const trusted = verify(outputs, { 'page.html': [signature, stale, String(mtimeNs + RACY_MARGIN_NS + SECOND_NS)] });
    expect(trusted.hashed).toBe(0);
  });

  it('reports a link, a folder and a missing output as without the cache, and keeps no entry for them', async () => {
    const outputs = await destination({ 'a.html': 'a', 'b.html': 'b', 'c.html': 'c' });
    const first = verify(outputs, undefined, later);
    await fs.rm(path.join(dir, 'a.html'));
    await fs.symlink(path.join(dir, 'b.html'), path.join(dir, 'a.html'));
    await fs.rm(path.join(dir, 'b.html'));
    await fs.mkdir(path.join(dir, 'b.html'));
    await fs.rm(path.join(dir, 'c.html'));
    const second = verify(outputs, first.seen, later);
    expect(second.report).toEqual(verifyHere(dir, outputs, hasher()));
    expect(second.report.outputs.map((output) => output.status)).toEqual(['not_a_file', 'not_a_file', 'missing']);
    expect(second.seen).toEqual({});
  });

  it('says what a verify without it says, whatever is done to the files between verifies (property)', async () => {
    const names = ['a.html', 'sub/b.html', 'sub/deeper/c.css'];
    const operation = fc.record({
      file: fc.constantFrom(...names),
      kind: fc.constantFrom('same_size', 'other_size', 'replace', 'touch', 'remove', 'restore'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (operations) => {
        await fs.rm(dir, { recursive: true, force: true });
        await fs.mkdir(dir);
        const outputs = await destination({ 'a.html': 'aaaa', 'sub/b.html': 'bbbb', 'sub/deeper/c.css': 'cccc' });
        // The real clock: files written this instant are racily clean, as in life.
        let known = verify(outputs, undefined).seen;
        for (const { file, kind } of operations) {
          const absolute = path.join(dir, file);
          if (kind === 'same_size') await fs.writeFile(absolute, 'xxxx');
          if (kind === 'other_size') await fs.writeFile(absolute, 'longer bytes');
          if (kind === 'replace') {
            await fs.writeFile(`${absolute}.tmp`, 'yyyy');
            await fs.rename(`${absolute}.tmp`, absolute);
          }
          if (kind === 'touch') await fs.utimes(absolute, new Date(), new Date(Date.now() - 60_000)).catch(() => undefined);
          if (kind === 'remove') await fs.rm(absolute, { force: true });
          if (kind === 'restore') await fs.writeFile(absolute, file === 'a.html' ? 'aaaa' : file === 'sub/b.html' ? 'bbbb' : 'cccc');
          const cached = verify(outputs, known);
          expect(cached.report).toEqual(verifyHere(dir, outputs, hasher()));
          known = cached.seen;
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('StatCache on disk', () => {
  const identity = { machine: 'machine-a', boot: 'boot-1' };
  const entry: CachedOutput = ['1:2:3:4:5', sha('x'), '6'];

  it('keeps what a verify recorded across a save and a load on the same machine and boot', async () => {
    const file = path.join(dir, 'state', 'verify-stat-cache.json');
    const { cache } = await StatCache.load(file, identity);
    cache.record('/w/site', { 'index.html': entry });
    await cache.save();
    const again = await StatCache.load(file, identity);
    expect(again.discarded).toBeUndefined();
    expect(again.cache.known('/w/site')).toEqual({ 'index.html': entry });
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('keeps a state file’s entry across a save and a load, and drops it when a verify found none to keep', async () => {
    const file = path.join(dir, 'verify-stat-cache.json');
    const { cache } = await StatCache.load(file, identity);
    const state: CachedState = { file: entry, issues: [], pipeline_id: 'p', outputs: [['index.html', 1, sha('x')]] };
    cache.update('/w/site', { 'index.html': entry }, [], state);
    await cache.save();
    const again = (await StatCache.load(file, identity)).cache;
    expect(again.state('/w/site')).toEqual(state);
    // Only the time moved: the entry stays; a state read again and found unmanaged: it goes.
    again.update('/w/site', {}, []);
    expect(again.state('/w/site')).toEqual(state);
    again.update('/w/site', {}, [], null);
    expect(again.state('/w/site')).toBeUndefined();
    expect(again.known('/w/site')).toEqual({ 'index.html': entry });
  });

  it('vouches for a destination only while every entry is settled, and forgets its expectation when the entry changes', async () => {
    const { cache } = await StatCache.load(path.join(dir, 'cache.json'), identity);
    const settled: CachedOutput = ['1:2:3:4:5', sha('x'), String(5n + RACY_MARGIN_NS + 1n)];
    const racy: CachedOutput = ['1:2:3:4:5', sha('x'), String(5n + RACY_MARGIN_NS)];
    const state = (file: CachedOutput): CachedState => ({ file, issues: [], outputs: [['index.html', 3, sha('x')]] });
    cache.update('/w/site', { 'index.html': settled }, [], state(settled));
    expect(cache.vouched('/w/site')?.expectation).toBe('1:2:3:4:5\nindex.html\n1:2:3:4:5');
    cache.update('/w/site', { 'index.html': racy }, []);
    expect(cache.vouched('/w/site')).toBeUndefined();
    cache.update('/w/site', { 'index.html': settled }, [], state(racy));
    expect(cache.vouched('/w/site')).toBeUndefined();
    cache.update('/w/site', {}, ['index.html'], state(settled));
    expect(cache.vouched('/w/site')).toBeUndefined();
  });

  it('applies what a verify changed: entries hashed anew replace theirs, outputs no longer files go', async () => {
    const { cache } = await StatCache.load(path.join(dir, 'cache.json'), identity);
    const other: CachedOutput = ['7:8:9:10:11', sha('y'), '12'];
    cache.record('/w/site', { 'a.html': entry, 'b.html': entry });
    cache.update('/w/site', { 'a.html': other }, ['b.html']);
    expect(cache.known('/w/site')).toEqual({ 'a.html': other });
    cache.update('/w/site', {}, []);
    expect(cache.known('/w/site')).toEqual({ 'a.html': other });
    cache.update('/w/new', { 'c.html': entry }, []);
    expect(cache.known('/w/new')).toEqual({ 'c.html': entry });
  });

  it.each([
    ['not JSON', '{"format": ', 'corrupt'],
    ['another format', JSON.stringify({ format: 'something else', machine: 'machine-a', boot: 'boot-1', destinations: {} }), 'corrupt'],
    [
      'a malformed entry',
      JSON.stringify({
        format: STAT_CACHE_FORMAT,
        ...identity,
        destinations: { '/w/site': { usedAt: 1, outputs: { 'a.html': ['x', 'y', 'z'] } } },
      }),
      'corrupt',
    ],
    [
      'another machine’s',
      JSON.stringify({
        format: STAT_CACHE_FORMAT,
        machine: 'machine-b',
        boot: 'boot-1',
        destinations: { '/w/site': { usedAt: 1, outputs: { 'a.html': entry } } },
      }),
      'other_machine',
    ],
    [
      'an earlier boot’s',
      JSON.stringify({
        format: STAT_CACHE_FORMAT,
        machine: 'machine-a',
        boot: 'boot-0',
        destinations: { '/w/site': { usedAt: 1, outputs: { 'a.html': entry } } },
      }),
      'other_boot',
    ],
    [
      'of the format before state files were kept',
      JSON.stringify({
        format: 'distributor-inspector/verify-stat-cache@1',
        ...identity,
        destinations: { '/w/site': { usedAt: 1, outputs: { 'a.html': entry } } },
      }),
      'corrupt',
    ],
    ...(
      [
        ['an unclean output path', { outputs: [['../outside.html', 1, sha('x')]] }],
        ['an error among a managed state’s issues', { issues: [{ path: [], code: 'interrupted', message: 'x', severity: 'error' }] }],
        ['a malformed recorded hash', { outputs: [['a.html', 1, 'sha256:XYZ']] }],
        ['a malformed state signature', { file: ['not a signature', sha('x'), '6'] }],
      ] as const
    ).map(([what, broken]) => [
      `holding a state entry with ${what}`,
      JSON.stringify({
        format: STAT_CACHE_FORMAT,
        ...identity,
        destinations: {
          '/w/site': {
            usedAt: 1,
            outputs: { 'a.html': entry },
            state: { file: entry, issues: [], outputs: [['a.html', 1, sha('x')]], ...broken },
          },
        },
      }),
      'corrupt',
    ]),
  ])('discards a cache file that is %s, and trusts nothing in it', async (_what, text, reason) => {
    const file = path.join(dir, 'verify-stat-cache.json');
    await fs.writeFile(file, text);
    const { cache, discarded } = await StatCache.load(file, identity);
    expect(discarded).toBe(reason);
    expect(cache.known('/w/site')).toBeUndefined();
  });

  it('counts a state file’s records toward its bound as it counts outputs', () => {
    const state: CachedState = {
      file: entry,
      issues: [],
      outputs: [
        ['a.html', 1, sha('x')],
        ['b.html', 1, sha('x')],
      ],
    };
    const withState: CachedDestination = { usedAt: 2, outputs: { 'a.html': entry, 'b.html': entry }, state };
    const older: CachedDestination = { usedAt: 1, outputs: { 'c.html': entry } };
    expect(Object.keys(boundedDestinations({ '/w/new': withState, '/w/old': older }, 4))).toEqual(['/w/new']);
    expect(Object.keys(boundedDestinations({ '/w/new': withState, '/w/old': older }, 5))).toEqual(['/w/new', '/w/old']);
  });

  it('stays within its bound, keeping the destinations verified most recently (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(1000), fc.nat(20)), { maxLength: 30 }), fc.integer({ min: 1, max: 100 }), (specs, max) => {
        const destinations: Record<string, CachedDestination> = {};
        specs.forEach(([usedAt, count], i) => {
          destinations[`/w/${i}`] = { usedAt, outputs: Object.fromEntries(Array.from({ length: count }, (_, j) => [`f${j}`, entry])) };
        });
        const kept = boundedDestinations(destinations, max);
        const total = Object.values(kept).reduce((sum, d) => sum + Object.keys(d.outputs).length, 0);
        expect(total).toBeLessThanOrEqual(max);
        // Nothing dropped that fits beside what was kept and is more recent than something kept.
        for (const [root, d] of Object.entries(destinations)) {
          if (root in kept) continue;
          const newer = Object.values(kept).some((k) => k.usedAt < d.usedAt);
          if (newer) expect(total + Object.keys(d.outputs).length).toBeGreaterThan(max);
        }
      }),
    );
  });
});
