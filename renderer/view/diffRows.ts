// The file diff of a comparison as one flat list of rows (section headers and files), so a virtual
// list can show 10,000 files at once. Filtering and collapsing are pure functions of the diff.

import type { ResponseOf } from '../../shared/api';

type ManifestDiff = NonNullable<ResponseOf<'compare'>['diff']>;
export type DiffSection = 'added' | 'removed' | 'changed';
export const DIFF_SECTIONS: readonly DiffSection[] = ['added', 'removed', 'changed'];

export type DiffRow =
  | { type: 'header'; section: DiffSection; count: number; shown: number; collapsed: boolean }
  | { type: 'file'; section: DiffSection; path: string; detail: string };

export interface DiffView {
  rows: DiffRow[];
  counts: Record<DiffSection, number>;
}

function sizeChange(before: number, after: number): string {
  const delta = after - before;
  return `${before.toLocaleString('en-US')} → ${after.toLocaleString('en-US')} bytes (${delta >= 0 ? '+' : ''}${delta.toLocaleString('en-US')})`;
}

export function diffRows(diff: ManifestDiff, query: string, collapsed: ReadonlySet<DiffSection>): DiffView {
  const needle = query.trim().toLowerCase();
  const matches = (path: string) => needle === '' || path.toLowerCase().includes(needle);
  const sections: Record<DiffSection, { path: string; detail: string }[]> = {
    added: diff.added.filter((f) => matches(f.path)).map((f) => ({ path: f.path, detail: `${f.size.toLocaleString('en-US')} bytes` })),
    removed: diff.removed.filter((f) => matches(f.path)).map((f) => ({ path: f.path, detail: `${f.size.toLocaleString('en-US')} bytes` })),
    changed: diff.changed
      .filter((f) => matches(f.path))
      .map((f) => ({
        path: f.path,
        detail: f.changedBy.includes('size')
          ? `size ${sizeChange(f.recorded.size, f.current.size)}`
          : 'same size, different content (sha256)',
      })),
  };
  const counts = { added: diff.added.length, removed: diff.removed.length, changed: diff.changed.length };
  const rows: DiffRow[] = [];
  for (const section of DIFF_SECTIONS) {
    const files = sections[section];
    const isCollapsed = collapsed.has(section);
    rows.push({ type: 'header', section, count: counts[section], shown: files.length, collapsed: isCollapsed });
    if (!isCollapsed) for (const file of files) rows.push({ type: 'file', section, ...file });
  }
  return { rows, counts };
}
