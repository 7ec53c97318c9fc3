// A folder compare as a table, as Beyond Compare shows two folders: one row per path (matches,
// differs, missing, extra), each status a badge with its icon and word (never colour alone), the
// counts as filter buttons, and a filter by path. Shows the engine's answer as given; decides nothing.

import { useId, useState } from 'react';
import type { FolderCompare, FolderEntry, FolderEntryStatus } from '../../shared/folderCompare';
import { formatBytes } from '../view/format';
import { Icon } from './Icon';

/** Rows drawn at once; the filter finds the rest. */
const ROWS_SHOWN = 500;

const STATUS_LOOK: Record<FolderEntryStatus, { tone: string; icon: 'check' | 'alert' | 'x' | 'info'; word: string }> = {
  matches: { tone: 'tone-good', icon: 'check', word: 'matches' },
  differs: { tone: 'tone-warning', icon: 'alert', word: 'differs' },
  missing: { tone: 'tone-danger', icon: 'x', word: 'missing' },
  extra: { tone: 'tone-neutral', icon: 'info', word: 'extra' },
};

const FILTERS: readonly (FolderEntryStatus | 'all')[] = ['all', 'matches', 'differs', 'missing', 'extra'];

/** What one row says beside its status: why it differs, what a link points at (never followed), where its bytes come from. */
export function folderEntryDetails(entry: FolderEntry): string {
  const parts: string[] = [];
  if (entry.kind && entry.kind !== 'file') parts.push(entry.kind.replace('_', ' '));
  if (entry.actual?.linkTarget !== undefined) parts.push(`→ ${entry.actual.linkTarget} (not followed)`);
  if (entry.reason === 'size_mismatch' && entry.expected)
    parts.push(`${formatBytes(entry.actual?.size ?? 0)} here, ${formatBytes(entry.expected.size)} from the source`);
  if (entry.reason === 'hash_mismatch') parts.push('same size, other bytes');
  if (entry.reason === 'unreadable') parts.push('could not be read');
  if (entry.expected?.generated) parts.push(`generated from ${entry.expected.source_path}`);
  if (entry.status === 'extra' && entry.actual?.size !== undefined) parts.push(formatBytes(entry.actual.size));
  return parts.join(' · ');
}

export function FolderCompareTable({ compare }: { compare: FolderCompare }) {
  const [shown, setShown] = useState<FolderEntryStatus | 'all'>('all');
  const [query, setQuery] = useState('');
  const filterId = useId();
  const needle = query.trim().toLowerCase();
  const rows = compare.entries.filter(
    (entry) => (shown === 'all' || entry.status === shown) && (needle === '' || entry.path.toLowerCase().includes(needle)),
  );
  return (
    <div className="folder-compare" data-testid="folder-compare">
      <div className="plan-rows-toolbar" role="group" aria-label="Filter the folder compare">
        <label htmlFor={filterId} className="visually-hidden">
          Filter files by path
        </label>
        <input
          id={filterId}
          type="search"
          placeholder="Filter by path"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        {FILTERS.map((filter) => {
          const count = filter === 'all' ? compare.entries.length : compare.counts[filter];
          return (
            <button
              key={filter}
              type="button"
              className="chip"
              aria-pressed={shown === filter}
              onClick={() => setShown(filter)}
              data-testid={`folder-filter-${filter}`}
            >
              {filter === 'all' ? 'all' : STATUS_LOOK[filter].word} <span className="count">{count.toLocaleString('en-US')}</span>
            </button>
          );
        })}
      </div>
      {/* Focusable: a long compare scrolls, and a keyboard user must be able to scroll it too. */}
      <div className="folder-compare-rows" tabIndex={0} aria-label="Every path of the folder compare" role="region">
        <table>
          <caption className="muted">
            {rows.length === compare.entries.length ? `${rows.length} paths` : `${rows.length} of ${compare.entries.length} paths`}
          </caption>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Path</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, ROWS_SHOWN).map((entry) => {
              const look = STATUS_LOOK[entry.status];
              return (
                <tr key={`${entry.status}:${entry.path}`} data-status={entry.status}>
                  <td>
                    <span className={`badge ${look.tone}`}>
                      <Icon name={look.icon} />
                      {look.word}
                    </span>
                  </td>
                  <td>
                    <code>{entry.path}</code>
                  </td>
                  <td className="muted">{folderEntryDetails(entry)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {rows.length > ROWS_SHOWN && <p className="muted">{rows.length - ROWS_SHOWN} more: filter by path to find them.</p>}
    </div>
  );
}
