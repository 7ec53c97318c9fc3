// The sidebar's list of destinations: virtualized (10,000 rows scroll smoothly), a listbox the arrow
// keys move through, rows of fixed height so nothing jumps while scan results stream in. Several can be
// selected (renderer/view/multiSelection.ts): ctrl/cmd-click toggles a row, shift-click or shift+arrow
// selects a range of the rows shown, ctrl/cmd+A selects every row shown.

import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { groupDigits } from '../../shared/issueCap';
import type { DestinationRow } from '../view/destinationRows';
import { formatAge } from '../view/format';
import { gestureOf, type SelectGesture } from '../view/multiSelection';
import { Icon } from './Icon';
import { StatusBadge, SyncBadge, VerifyMark } from './StatusBadge';

export const ROW_HEIGHT_PX = 58;

interface Props {
  rows: readonly DestinationRow[];
  /** The row last clicked: the one the arrow keys move from. */
  selectedId: string | undefined;
  /** Whether a row shows as selected (several may be). */
  isSelected?: (id: string) => boolean;
  onSelect: (id: string, gesture: SelectGesture) => void;
  /** Ctrl/cmd+A: every row shown. */
  onSelectAll?: () => void;
  emptyText: string;
  /** Hosts whose connection was lost (or failed): their rows say so. */
  lostHosts?: ReadonlySet<string>;
}

const optionId = (index: number) => `destination-option-${index}`;

export function DestinationList({ rows, selectedId, isSelected, onSelect, onSelectAll, emptyText, lostHosts }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT_PX,
    overscan: 12,
  });
  // Nothing selected (a list just opened, 100,000 rows): no walk of every row to find nothing.
  const selectedIndex = selectedId === undefined ? -1 : rows.findIndex((row) => row.id === selectedId);

  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Shift+arrow grows the range from the anchor, as shift-click does.
    const move = (to: number) => {
      const row = rows[Math.max(0, Math.min(rows.length - 1, to))];
      if (row) onSelect(row.id, event.shiftKey ? 'range' : 'one');
    };
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a' && onSelectAll) {
      event.preventDefault();
      onSelectAll();
      return;
    }
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT_PX * 10) / ROW_HEIGHT_PX) - 1);
    const at = selectedIndex < 0 ? -1 : selectedIndex;
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(at + 1),
      ArrowUp: () => move(at - 1),
      PageDown: () => move(at + page),
      PageUp: () => move(at - page),
      Home: () => move(0),
      End: () => move(rows.length - 1),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  if (rows.length === 0)
    return (
      <div className="list-empty" role="status">
        {emptyText}
      </div>
    );

  return (
    <div
      ref={scroller}
      className="destination-list"
      role="listbox"
      aria-label="Destinations"
      aria-multiselectable="true"
      tabIndex={0}
      aria-activedescendant={selectedIndex >= 0 ? optionId(selectedIndex) : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          const selected = isSelected ? isSelected(row.id) : row.id === selectedId;
          return (
            <div
              key={row.id}
              id={optionId(item.index)}
              role="option"
              aria-selected={selected}
              aria-setsize={rows.length}
              aria-posinset={item.index + 1}
              className={row.id === selectedId ? 'row current' : 'row'}
              data-destination={row.id}
              data-status={row.status ?? 'pending'}
              style={{ top: item.start, height: ROW_HEIGHT_PX }}
              onMouseDown={(event) => {
                // A shift-click selects rows, not the text between them.
                if (event.shiftKey) event.preventDefault();
              }}
              onClick={(event) => onSelect(row.id, gestureOf(event))}
            >
              <div className="line">
                <span className="name">{row.name}</span>
                {row.host !== undefined && lostHosts?.has(row.host) && (
                  <span className="badge tone-warning" title={`the connection to ${row.host} was lost: re-inspect once it is back`}>
                    <Icon name="alert" />
                    host lost
                  </span>
                )}
                {row.interrupted && (
                  <span className="badge tone-warning" title="a replace was interrupted">
                    <Icon name="alert" />
                    interrupted
                  </span>
                )}
                {row.sync !== undefined && row.sync !== 'no_source' && <SyncBadge kind={row.sync} title={row.syncTitle} />}
                <StatusBadge status={row.status} />
              </div>
              <div className="line">
                <span className="sub">
                  {row.pipelineId ? `${row.pipelineId} · ` : ''}
                  {row.publishedAt ? formatAge(row.publishedAt) || row.relativePath : row.relativePath}
                </span>
                {row.status === 'managed' && <VerifyMark mark={row.verify} compact verified={row.verified} />}
                {row.errorCount + row.warningCount > 0 && (
                  <span
                    className="badge tone-neutral"
                    title={`${groupDigits(row.errorCount)} errors, ${groupDigits(row.warningCount)} warnings`}
                  >
                    {row.errorCount > 0
                      ? `${groupDigits(row.errorCount)} error${row.errorCount === 1 ? '' : 's'}`
                      : `${groupDigits(row.warningCount)} warning${row.warningCount === 1 ? '' : 's'}`}
                  </span>
                )}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
