import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffManifests, isEmptyDiff } from './diffManifests';
import { manifestSchema } from './documentSchemas';
import type { Manifest } from './manifestSchema';
import { sampleManifest, sampleSha256 } from './sampleDocuments';

const manifest = (change: (m: Manifest) => void = () => {}): Manifest => {
  const value = manifestSchema.parse(sampleManifest({ extraFiles: 3 }));
  change(value);
  return value;
};

describe('diffManifests', () => {
  it('finds nothing between a manifest and itself', () => {
    const diff = diffManifests(manifest(), manifest());
    expect(diff).toEqual({ fields: {}, added: [], removed: [], changed: [], unchangedCount: 4 });
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it('lists files added and removed, sorted by path', () => {
    const current = manifest((m) => {
      m.files.splice(1, 1);
      m.files.push({ path: 'z.md', sha256: sampleSha256(9), size: 9 }, { path: 'a.md', sha256: sampleSha256(8), size: 8 });
    });
    const diff = diffManifests(manifest(), current);
    expect(diff.added.map((file) => file.path)).toEqual(['a.md', 'z.md']);
    expect(diff.removed.map((file) => file.path)).toEqual(['pages/page-0.md']);
    expect(diff.unchangedCount).toBe(3);
    expect(isEmptyDiff(diff)).toBe(false);
  });

  it('tells a change by hash, by size and by both apart', () => {
    const current = manifest((m) => {
      m.files[0] = { ...m.files[0]!, sha256: sampleSha256(77) };
      m.files[1] = { ...m.files[1]!, size: 5 };
      m.files[2] = { ...m.files[2]!, sha256: sampleSha256(78), size: 6 };
    });
    const diff = diffManifests(manifest(), current);
    expect(diff.changed.map((change) => [change.path, change.changedBy])).toEqual([
      ['pages/page-0.md', ['size']],
      ['pages/page-1.md', ['sha256', 'size']],
      ['report.md', ['sha256']],
    ]);
    expect(diff.changed[2]).toEqual({
      path: 'report.md',
      recorded: { sha256: sampleSha256(1), size: 1234 },
      current: { sha256: sampleSha256(77), size: 1234 },
      changedBy: ['sha256'],
    });
    expect(diff.unchangedCount).toBe(1);
  });

  it('reports the id, digest and created fields that differ, with the order of the created instants', () => {
    const current = manifest((m) => {
      m.id = 'other';
      m.digest = sampleSha256(2);
      m.created = '2026-06-04T11:55:00.000000001Z';
    });
    expect(diffManifests(manifest(), current).fields).toEqual({
      id: { recorded: 'reports.example.2026-06-04', current: 'other' },
      digest: { recorded: sampleSha256(0xd1), current: sampleSha256(2) },
      created: { recorded: '2026-06-04T11:55:00Z', current: '2026-06-04T11:55:00.000000001Z', order: 'newer' },
    });
    expect(diffManifests(current, manifest()).fields.created?.order).toBe('older');
  });

  it('shows two spellings of one created instant, but as the same instant and an empty diff', () => {
    const diff = diffManifests(
      manifest(),
      manifest((m) => (m.created = '2026-06-04T13:55:00+02:00')),
    );
    expect(diff.fields.created?.order).toBe('same_instant');
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it('is empty between any manifest and itself, and added one way is removed the other', () => {
    const file = fc.record({
      path: fc.stringMatching(/^[a-c]{1,3}(\/[a-c]{1,2})?\.md$/),
      sha256: fc.nat(3).map(sampleSha256),
      size: fc.nat(3),
    });
    const files = fc.uniqueArray(file, { selector: (f) => f.path, maxLength: 12 });
    fc.assert(
      fc.property(files, files, (a, b) => {
        const ma = manifest((m) => (m.files = a));
        const mb = manifest((m) => (m.files = b));
        expect(isEmptyDiff(diffManifests(ma, ma))).toBe(true);
        const ab = diffManifests(ma, mb);
        const ba = diffManifests(mb, ma);
        expect(ab.added).toEqual(ba.removed);
        expect(ab.changed.map((c) => c.path)).toEqual(ba.changed.map((c) => c.path));
        expect(ab.added.length + ab.changed.length + ab.unchangedCount).toBe(b.length);
        expect(ab.removed.length + ab.changed.length + ab.unchangedCount).toBe(a.length);
      }),
    );
  });

  it('diffs manifests of 100,000 files in linear time', () => {
    const big = (shift: number) =>
      manifest((m) => {
        m.files = Array.from({ length: 100_000 }, (_, i) => ({
          path: `pages/${(i + shift) % 97}/page-${i + shift}.md`,
          sha256: sampleSha256(i % 5 === 0 ? i + shift : i + shift),
          size: i + shift,
        }));
      });
    const recorded = big(0);
    const current = big(10);
    const started = performance.now();
    const diff = diffManifests(recorded, current);
    const elapsedMs = performance.now() - started;
    console.log(`diffManifests on 100,000 files: ${elapsedMs.toFixed(0)} ms`);
    expect(diff.added).toHaveLength(10);
    expect(diff.removed).toHaveLength(10);
    expect(diff.changed.length + diff.unchangedCount).toBe(99_990);
  });
});
