// The file diff of a comparison: added, removed and changed files with counts, a path filter, and
// sections that collapse. One virtual list, so 10,000 files stay fast.

import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import type { ResponseOf } from '../../shared/api';
import { diffRows, type DiffSection } from '../view/diffRows';
import { Icon } from './Icon';

type ManifestDiffData = NonNullable<ResponseOf<'compare'>['diff']>;

const SECTION_LOOK: Record<DiffSection, { title: string; sign: string; tone: string }> = {
  added: { title: 'Added in the source', sign: '+', tone: 'tone-good' },
  removed: { title: 'Removed from the source', sign: '−', tone: 'tone-danger' },
  changed: { title: 'Changed', sign: '~', tone: 'tone-warning' },
};

const ROW_PX = 32;

/** `onShowDiff`, when given, puts a Diff button on each changed file (its source path). */
export function ManifestDiff({ diff, onShowDiff }: { diff: ManifestDiffData; onShowDiff?: (sourcePath: string) => void }) {
  const [query, setQuery] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<DiffSection>>(new Set());
  const view = useMemo(() => diffRows(diff, query, collapsed), [diff, query, collapsed]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: view.rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 16,
  });
  const toggle = (section: DiffSection) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(section)) next.delete(section);
      else next.add(section);
      return next;
    });
  const total = view.counts.added + view.counts.removed + view.counts.changed;

  return (
    <section className="section" aria-labelledby="file-diff">
      <h2 id="file-diff">
        Files: {view.counts.added} added, {view.counts.removed} removed, {view.counts.changed} changed, {diff.unchangedCount} unchanged
      </h2>
      {total === 0 ? (
        <p className="muted">The two manifests list the same files with the same hashes and sizes.</p>
      ) : (
        <>
          <div className="diff-controls">
            <label htmlFor="diff-filter" className="visually-hidden">
              Filter files by path
            </label>
            <input
              id="diff-filter"
              type="search"
              placeholder="Filter files by path"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
          </div>
          <div ref={scroller} className="diff-list" style={{ height: Math.min(22 * 16, view.rows.length * ROW_PX + 2) }}>
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }} role="list" aria-label="File differences">
              {virtualizer.getVirtualItems().map((item) => {
                const row = view.rows[item.index]!;
                const look = SECTION_LOOK[row.section];
                if (row.type === 'header') {
                  return (
                    <div key={`h-${row.section}`} role="listitem" className="diff-slot" style={{ top: item.start, height: ROW_PX }}>
                      <button
                        type="button"
                        className="diff-row header"
                        style={{ height: ROW_PX }}
                        aria-expanded={!row.collapsed}
                        onClick={() => toggle(row.section)}
                      >
                        <Icon name={row.collapsed ? 'chevronRight' : 'chevronDown'} />
                        <span className={`badge ${look.tone}`}>
                          {look.sign} {row.count}
                        </span>
                        {look.title}
                        {row.shown !== row.count && <span className="muted">({row.shown} match the filter)</span>}
                      </button>
                    </div>
                  );
                }
                return (
                  <div key={`${row.section}-${row.path}`} role="listitem" className="diff-row" style={{ top: item.start, height: ROW_PX }}>
                    <span className={`sign ${look.tone}`} aria-label={row.section}>
                      {look.sign}
                    </span>
                    <span className="path">{row.path}</span>
                    <span className="detail">{row.detail}</span>
                    {onShowDiff && row.section === 'changed' && (
                      <button type="button" className="button small" aria-label={`Diff ${row.path}`} onClick={() => onShowDiff(row.path)}>
                        Diff
                      </button>
                    )}
                  </div>
                );
              })}
            </div>
          </div>
        </>
      )}
    </section>
  );
}
