import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlainBackupEntry, isPlainBackupWrite, plainBackupManifest } from './backupManifestCheck';
import { backupEntrySchema, backupManifestSchema, BACKUP_KIND } from './backupSchema';
import { sampleSha256 } from './sampleDocuments';

// Each field mostly right, sometimes nearly right or left out, so that both verdicts occur often;
// every value goes through JSON first, as the manifest's reader sees it.
const field = <T>(right: T[], wrong: unknown[]) =>
  fc.oneof({ arbitrary: fc.constantFrom(...right), weight: 6 }, { arbitrary: fc.constantFrom(undefined, ...wrong), weight: 1 });
const optional = (values: unknown[]) => fc.constantFrom(undefined, ...values);
const pathValue = field(['a.html', 'a/b.md', '.a', 'é/😀'], ['../a', '', 'a\\b', 'a/', '/a', 5, null]);
const entry = fc.record({
  path: pathValue,
  type: field(['file', 'directory', 'symlink', 'other'], ['File', '', 1]),
  size: field([0, 4096, 2 ** 40], ['3', null, true]),
  mtimeNs: field(['1765000000000000000'], [17, null]),
  ino: field(['123'], [123, null]),
  sha256: optional([sampleSha256(1), 'anything', 5]),
  mode: optional([0o755, 1.5, '644']),
  linkTarget: optional(['../x', 7]),
  kept: field([true, false], ['yes', 0]),
  pending: optional([true, false, 1]),
  stray: fc.constantFrom(undefined, undefined, undefined, 'x'),
});
const write = fc.record({
  path: pathValue,
  sha256: field([sampleSha256(2)], [3, null]),
  size: field([0, 12], ['12', null]),
  stray: fc.constantFrom(undefined, undefined, undefined, 1),
});
const notARecord = fc.oneof(fc.constantFrom(null, 5, 'a', true), fc.array(fc.nat(), { maxLength: 2 }));
const asJson = <T>(value: T): unknown => JSON.parse(JSON.stringify(value) ?? 'null');
const writeSchema = backupManifestSchema.shape.writes.element;
/** JSON with its keys sorted: equal for two values that differ only in key order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1)))
      : inner,
  );
const givenBackUnchanged = (parsed: { success: boolean; data?: unknown }, value: unknown) =>
  parsed.success && canonical(parsed.data) === canonical(value);

const shell = (entries: unknown[], writes: unknown[]) => ({
  kind: BACKUP_KIND,
  version: 1,
  id: '2026-12-06T093836.023Z',
  action: 'replace',
  createdAt: '2026-12-06T09:38:36.023Z',
  destination: { id: 'small', path: '/d', realPath: '/d' },
  method: 'rename',
  stagingName: '.distributor-staging',
  stateSha256: null,
  entries,
  writes,
});
const manifest = fc.record({
  entries: fc.array(fc.oneof({ arbitrary: entry, weight: 8 }, { arbitrary: notARecord, weight: 1 }), { maxLength: 4 }),
  writes: fc.array(write, { maxLength: 3 }),
  kind: field([BACKUP_KIND], ['backup']),
  version: field([1], [2, '1']),
  after: optional([
    { at: 'now', outcome: 'applied' },
    { at: 'now', outcome: 'lost' },
  ]),
  unknownTop: optional(['kept by the loose shell']),
  destination: field([{ id: 'small', path: '/d', realPath: '/d' }], [{ path: '/d' }, { path: '/d', realPath: '/d', extra: 1 }]),
});

describe('the fast check of a backup manifest', () => {
  it('accepts an entry only when backupEntrySchema gives it back unchanged', () => {
    fc.assert(
      fc.property(fc.oneof(entry, notARecord), (raw) => {
        const value = asJson(raw);
        expect(isPlainBackupEntry(value)).toBe(givenBackUnchanged(backupEntrySchema.safeParse(value), value));
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts a write only when the schema gives it back unchanged', () => {
    fc.assert(
      fc.property(fc.oneof(write, notARecord), (raw) => {
        const value = asJson(raw);
        expect(isPlainBackupWrite(value)).toBe(givenBackUnchanged(writeSchema.safeParse(value), value));
      }),
      { numRuns: 500 },
    );
  });

  it('gives a manifest back exactly as backupManifestSchema does, or leaves it to the schema', () => {
    let fastOnes = 0;
    fc.assert(
      fc.property(manifest, ({ entries, writes, ...top }) => {
        const value = asJson({ ...shell(entries, writes), ...top });
        const fast = plainBackupManifest(value);
        const parsed = backupManifestSchema.safeParse(value);
        if (fast === undefined) return;
        fastOnes += 1;
        expect(parsed.success).toBe(true);
        expect(canonical(fast)).toBe(canonical(parsed.data));
      }),
      { numRuns: 800 },
    );
    expect(fastOnes).toBeGreaterThan(20);
  });

  it('leaves a manifest with a record the schema refuses to the schema, which names the field', () => {
    const value = asJson(shell([{ path: '../out', type: 'file', size: 1, mtimeNs: '1', ino: '1', kept: true }], []));
    expect(plainBackupManifest(value)).toBeUndefined();
    const parsed = backupManifestSchema.safeParse(value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['entries', 0, 'path']);
  });
});
