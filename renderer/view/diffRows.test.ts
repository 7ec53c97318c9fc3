import { describe, expect, it } from 'vitest';
import { diffRows } from './diffRows';

const file = (path: string, size = 1) => ({ path, sha256: `sha256:${'a'.repeat(64)}`, size });
const diff = {
  fields: {},
  added: [file('guide/upgrade.md', 40)],
  removed: [file('data/regions.csv', 30)],
  changed: [
    {
      path: 'index.md',
      recorded: { sha256: 'x', size: 10 },
      current: { sha256: 'y', size: 12 },
      changedBy: ['sha256' as const, 'size' as const],
    },
    { path: 'guide/same-size.md', recorded: { sha256: 'x', size: 10 }, current: { sha256: 'y', size: 10 }, changedBy: ['sha256' as const] },
  ],
  unchangedCount: 3,
};

describe('the file diff rows', () => {
  it('lists sections with their counts, then their files, and says how a file changed', () => {
    const view = diffRows(diff, '', new Set());
    expect(view.counts).toEqual({ added: 1, removed: 1, changed: 2 });
    expect(view.rows.map((row) => (row.type === 'header' ? `# ${row.section} ${row.count}` : row.path))).toEqual([
      '# added 1',
      'guide/upgrade.md',
      '# removed 1',
      'data/regions.csv',
      '# changed 2',
      'index.md',
      'guide/same-size.md',
    ]);
    expect(view.rows[5]).toMatchObject({ detail: 'size 10 → 12 bytes (+2)' });
    expect(view.rows[6]).toMatchObject({ detail: 'same size, different content (sha256)' });
  });

  it('filters by path and collapses sections, keeping the full counts in the headers', () => {
    const view = diffRows(diff, 'GUIDE', new Set(['added']));
    expect(view.rows.map((row) => (row.type === 'header' ? `# ${row.section} ${row.shown}/${row.count}` : row.path))).toEqual([
      '# added 1/1',
      '# removed 0/1',
      '# changed 1/2',
      'guide/same-size.md',
    ]);
  });

  it('filters 10,000 changed files to the ones whose path matches, and counts them all', () => {
    // Its speed at this size is the bench's (bench/run.ts, contentDiff), not a timed assertion here.
    const many = { ...diff, changed: Array.from({ length: 10_000 }, (_, i) => ({ ...diff.changed[0]!, path: `f/${i}.md` })) };
    const view = diffRows(many, '99', new Set());
    const changed = view.rows.filter((row) => row.type === 'file' && row.section === 'changed');
    // f/99.md, f/199.md … f/9999.md: 280 of the 10,000 paths hold "99".
    const expected = 280;
    expect(changed).toHaveLength(expected);
    expect(view.counts.changed).toBe(10_000);
    expect(view.rows.find((row) => row.type === 'header' && row.section === 'changed')).toMatchObject({ count: 10_000, shown: expected });
  });
});
