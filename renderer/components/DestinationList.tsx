// The sidebar's list of destinations: virtualized (10,000 rows scroll smoothly), a listbox the arrow
// keys move through, rows of fixed height so nothing jumps while scan results stream in. Several can be
// selected (renderer/view/multiSelection.ts): ctrl/cmd-click toggles a row, shift-click or shift+arrow
// selects a range of the rows shown, ctrl/cmd+A selects every row shown. Typing letters jumps to the
// next row whose id starts with them (type-ahead); the search's terms are marked in each row drawn.
// Grouped (by pipeline or host), a header comes before each group's rows by index arithmetic
// (view/listGroups.ts): the rows array stays the one the arrow keys and ranges walk.

import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { groupDigits } from '../../shared/issueCap';
import type { DestinationRow } from '../view/destinationRows';
import { formatAge } from '../view/format';
import { itemAt, itemIndexOfRow, type RowGroup } from '../view/listGroups';
import { highlightSegments, searchTerms } from '../view/searchHighlight';
import type { Density } from '../view/viewSettings';
import { gestureOf, type SelectGesture } from '../view/multiSelection';
import { Icon } from './Icon';
import { observedAfterFirstLayout } from './listObservers';
import { StatusBadge, SyncBadge, VerifyMark } from './StatusBadge';
import { useAppState } from '../state/store';

export const ROW_HEIGHT_PX = 58;
export const COMPACT_ROW_HEIGHT_PX = 28;
const GROUP_HEADER_HEIGHT_PX = 26;
/** Keys typed within this long of each other make one type-ahead prefix. */
const TYPE_AHEAD_MS = 800;

export const DESTINATION_LIST_ID = 'destination-list';

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
  /** Hosts that are not connected, each with what its rows say ("host lost, last known as of 14:05"). */
  lostHosts?: ReadonlyMap<string, string>;
  /** Where each group starts in `rows`, when the list is grouped. */
  groups?: readonly RowGroup[];
  density?: Density;
  /** The search box's text: its terms are marked in the rows drawn. */
  query?: string;
}

function Highlighted({ text, terms }: { text: string; terms: readonly string[] }) {
  if (terms.length === 0) return <>{text}</>;
  return (
    <>{highlightSegments(text, terms).map((segment, index) => (segment.match ? <mark key={index}>{segment.text}</mark> : segment.text))}</>
  );
}

/** The next row (after `from`, wrapping; from `from` itself when the prefix grew) whose name starts with the prefix. */
function typeAheadTarget(rows: readonly DestinationRow[], from: number, prefix: string, grew: boolean): number {
  const count = rows.length;
  for (let step = grew ? 0 : 1; step <= count; step += 1) {
    const index = (((from + step) % count) + count) % count;
    if (rows[index]!.name.toLowerCase().startsWith(prefix)) return index;
  }
  return -1;
}

const optionId = (index: number) => `destination-option-${index}`;

/** Whether an item is wholly in view, from what the virtualizer last read (no layout read now). */
function isInView(virtualizer: Virtualizer<HTMLDivElement, Element>, itemIndex: number): boolean {
  const item = virtualizer.getVirtualItems().find((candidate) => candidate.index === itemIndex);
  const top = virtualizer.scrollOffset;
  const height = virtualizer.scrollRect?.height;
  if (!item || top === null || !height) return false;
  return item.start >= top && item.end <= top + height;
}

export function DestinationList({
  rows,
  selectedId,
  isSelected,
  onSelect,
  onSelectAll,
  emptyText,
  lostHosts,
  groups = [],
  density = 'comfortable',
  query = '',
}: Props) {
  const heldBack = useAppState((state) => state.autoVerifySkipped);
  const scroller = useRef<HTMLDivElement>(null);
  const rowHeight = density === 'compact' ? COMPACT_ROW_HEIGHT_PX : ROW_HEIGHT_PX;
  const headerAt = (index: number) => groups.length > 0 && 'header' in itemAt(groups, index);
  const [firstLayout] = useState(observedAfterFirstLayout);
  const virtualizer = useVirtualizer({
    count: rows.length + groups.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (headerAt(index) ? GROUP_HEADER_HEIGHT_PX : rowHeight),
    overscan: 12,
    // No layout forced inside the first render (listObservers.ts).
    ...firstLayout,
  });
  // Sizes are estimates the virtualizer keeps: a new density or grouping measures again. By the
  // groups' places, not the array: each batch of scan results brings a new array of the same groups,
  // and measuring again walks every item (100,000 of them).
  const groupPlaces = groups.map((group) => `${group.start}+${group.count}`).join(',');
  useEffect(() => virtualizer.measure(), [virtualizer, rowHeight, groupPlaces]);
  const terms = useMemo(() => searchTerms(query), [query]);
  const typed = useRef({ prefix: '', at: 0 });
  // Nothing selected (a list just opened, 100,000 rows): no walk of every row to find nothing.
  const selectedIndex = selectedId === undefined ? -1 : rows.findIndex((row) => row.id === selectedId);
  const selectedItem = selectedIndex < 0 ? -1 : itemIndexOfRow(groups, selectedIndex);

  // Scrolls when the selection moves, not when results stream in; a row already in view is left
  // where it is without asking the virtualizer, whose scroll reads the page's layout (forcing it in
  // the middle of a render, 100+ ms on a loaded machine).
  useEffect(() => {
    if (selectedItem < 0 || isInView(virtualizer, selectedItem)) return;
    virtualizer.scrollToIndex(selectedItem, { align: 'auto' });
  }, [selectedItem, virtualizer]);

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
    // Type-ahead: a letter or digit, no modifier; keys typed close together make one prefix.
    if (event.key.length === 1 && /[\p{L}\p{N}_.-]/u.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      const now = event.timeStamp;
      const grew = now - typed.current.at < TYPE_AHEAD_MS;
      const key = event.key.toLowerCase();
      let prefix = (grew ? typed.current.prefix : '') + key;
      let target = typeAheadTarget(rows, selectedIndex, prefix, grew && selectedIndex >= 0);
      // A longer prefix that matches nothing starts again from the key just typed.
      if (target < 0 && prefix !== key) target = typeAheadTarget(rows, selectedIndex, (prefix = key), false);
      typed.current = { prefix, at: now };
      event.preventDefault();
      if (target >= 0) onSelect(rows[target]!.id, 'one');
      return;
    }
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? rowHeight * 10) / rowHeight) - 1);
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
      id={DESTINATION_LIST_ID}
      className={`destination-list ${density}`}
      role="listbox"
      aria-label="Destinations"
      aria-multiselectable="true"
      tabIndex={0}
      aria-activedescendant={selectedIndex >= 0 ? optionId(selectedIndex) : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const at = itemAt(groups, item.index);
          if ('header' in at) {
            const group = groups[at.header]!;
            // Decorative to assistive technology: each option still says its pipeline (and the list its size).
            return (
              <div
                key={`group:${group.label}`}
                className="group-header"
                aria-hidden="true"
                style={{ top: item.start, height: GROUP_HEADER_HEIGHT_PX }}
              >
                <span className="group-label">{group.label}</span>
                <span className="count">{groupDigits(group.count)}</span>
              </div>
            );
          }
          const index = at.row;
          const row = rows[index]!;
          const selected = isSelected ? isSelected(row.id) : row.id === selectedId;
          return (
            <div
              key={row.id}
              id={optionId(index)}
              role="option"
              aria-selected={selected}
              aria-setsize={rows.length}
              aria-posinset={index + 1}
              className={row.id === selectedId ? 'row current' : 'row'}
              data-destination={row.id}
              data-status={row.status ?? 'pending'}
              style={{ top: item.start, height: rowHeight }}
              onMouseDown={(event) => {
                // A shift-click selects rows, not the text between them.
                if (event.shiftKey) event.preventDefault();
              }}
              onClick={(event) => onSelect(row.id, gestureOf(event))}
            >
              <div className="line">
                <span className="name">
                  <Highlighted text={row.name} terms={terms} />
                </span>
                {row.host !== undefined && lostHosts?.has(row.host) && (
                  <span
                    className="badge tone-warning"
                    title={`${row.host} is not connected: the status shown is the last known one, not counted in the chips; it is read again once the host is back`}
                  >
                    <Icon name="alert" />
                    {lostHosts.get(row.host)}
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
                  <Highlighted
                    text={`${row.pipelineId ? `${row.pipelineId} · ` : ''}${row.publishedAt ? formatAge(row.publishedAt) || row.relativePath : row.relativePath}`}
                    terms={terms}
                  />
                </span>
                {row.status === 'managed' && (
                  <VerifyMark mark={row.verify} compact verified={row.verified} heldBack={heldBack?.get(row.id)} />
                )}
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
