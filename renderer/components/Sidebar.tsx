// The left pane: search, filter chips with counts (status, health and sync: OR within a group, AND
// across groups and with the search), sort, the selection (select all shown, select all that need
// repair, how many are selected; Escape clears) and the destination list.

import { useEffect, useMemo } from 'react';
import { groupDigits } from '../../shared/issueCap';
import type { DestinationStatus } from '../../shared/inspection';
import { bulkSelection, collapseSelection, selectAllDrifted, selectAllShown, selectDestination } from '../state/selectionActions';
import { selectionPlacement, shownGroupedRows } from '../state/shownRows';
import { setDensity, setGroupBy } from '../state/viewSettingsActions';
import { store, useAppState } from '../state/store';
import { STATUSES, type SortKey } from '../view/destinationRows';
import { HEALTH_CHIPS, type HealthMark } from '../view/health';
import { isSelected } from '../view/multiSelection';
import { initialSelection } from '../view/selection';
import { HEALTH_MEANING, STATUS_MEANING } from '../view/markMeaning';
import { lastKnownPhrase } from '../view/hostWords';
import { currentCounts, staleHostNames } from '../view/staleHostCounts';
import type { GroupBy } from '../view/viewSettings';
import { DESTINATION_LIST_ID, DestinationList } from './DestinationList';
import { HostsPanel } from './HostsPanel';
import { Icon, type IconName } from './Icon';
import { statusIcon, statusLabel, SYNC_LOOK } from './StatusBadge';
import { SYNC_KINDS } from '../../shared/syncKinds';
import type { SyncKind } from '../../shared/syncStatus';
import { SYNC_LABELS } from '../../shared/syncWords';
import { plural } from '../view/format';

export const SEARCH_INPUT_ID = 'destination-search';

function setFilter(patch: Partial<ReturnType<typeof store.get>['filter']>) {
  store.set((state) => ({ filter: { ...state.filter, ...patch } }));
}

function toggled<T>(set: ReadonlySet<T>, value: T): Set<T> {
  const next = new Set(set);
  if (next.has(value)) next.delete(value);
  else next.add(value);
  return next;
}

const toggleStatus = (status: DestinationStatus) => setFilter({ statuses: toggled(store.get().filter.statuses, status) });
const toggleHealth = (mark: HealthMark) => setFilter({ health: toggled(store.get().filter.health, mark) });
const toggleSync = (kind: SyncKind) => setFilter({ sync: toggled(store.get().filter.sync, kind) });

const HEALTH_LOOK: Record<HealthMark, { label: string; icon: IconName }> = {
  drifted: { label: 'drifted', icon: 'alert' },
  intact: { label: 'intact', icon: 'shield' },
  unverified: { label: 'not verified', icon: 'dash' },
  stale: { label: 'stale', icon: 'refresh' },
  interrupted: { label: 'interrupted', icon: 'stop' },
  warnings: { label: 'has warnings', icon: 'info' },
};

/** Search and every chip off: the whole list, with a hidden selection back in it. */
function showEverything() {
  setFilter({ query: '', statuses: new Set(), health: new Set(), sync: new Set(), host: undefined });
}

function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return Boolean(element && (element.tagName === 'INPUT' || element.tagName === 'TEXTAREA' || element.tagName === 'SELECT'));
}

/** Select all shown, select all drifted, and with several selected: how many, and Clear (Escape). */
function SelectionBar({ shown }: { shown: number }) {
  const bulk = useAppState(bulkSelection);
  const drifted = useAppState((state) => state.destinationTable.healthCounts.drifted);
  const several = bulk.ids.length >= 2;
  // Escape anywhere outside a field and a dialog clears a selection of several (back to the one last clicked).
  useEffect(() => {
    if (!several) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || isTyping(event.target) || document.querySelector('[aria-modal="true"]'))
        return;
      collapseSelection();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [several]);
  return (
    <div className="selection-bar" role="group" aria-label="Selection">
      <button type="button" className="button small" onClick={selectAllShown} disabled={shown < 2}>
        Select all shown
      </button>
      <button
        type="button"
        className="button small"
        onClick={selectAllDrifted}
        disabled={drifted === 0}
        title="Every destination verify found drifted: what Repair restores"
      >
        Select all that need repair ({groupDigits(drifted)})
      </button>
      {several && (
        <>
          <span role="status" data-testid="selection-count">
            <strong>{groupDigits(bulk.ids.length)} selected</strong>
            {bulk.hidden > 0 ? ` (${groupDigits(bulk.hidden)} hidden by the filter)` : ''}
          </span>
          <button type="button" className="button small" onClick={collapseSelection} title="Escape">
            Clear selection
          </button>
        </>
      )}
    </div>
  );
}

/** "14:05": when a lost host's statuses date from, short enough for a row. */
function shortTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function Sidebar() {
  const table = useAppState((state) => state.destinationTable);
  const filter = useAppState((state) => state.filter);
  const selectedId = useAppState((state) => state.selectedId);
  const selectedIds = useAppState((state) => state.selectedIds);

  // The table derives each row once, as its result arrives; here only the shown order is computed.
  // Destinations the workspace lists that are still on their way (listPages.ts) count, as scanning.
  const unlisted = useAppState((state) => state.unlisted);
  const total = table.destinationCount + unlisted;
  const { rows, groups } = useAppState(shownGroupedRows);
  const density = useAppState((state) => state.density ?? 'comfortable');
  const placement = useAppState(selectionPlacement);
  const hosts = useAppState((state) => state.hosts);
  // A host that is not connected: its rows say "host lost, last known HH:MM" and leave the counts.
  const lostHosts = useMemo(() => {
    const stale = staleHostNames(hosts);
    return new Map(hosts.filter((host) => stale.has(host.name)).map((host) => [host.name, lastKnownPhrase(host, shortTime)]));
  }, [hosts]);
  const current = useMemo(
    () =>
      currentCounts(
        { status: table.statusCounts, health: table.healthCounts, sync: table.syncCounts },
        lostHosts.size === 0 ? [] : table.rows.filter((row) => row.host !== undefined && lostHosts.has(row.host)),
      ),
    [table, lostHosts],
  );
  const counts = current.status;
  const healthCounts = current.health;
  const syncCounts = current.sync;
  const scanning = counts.pending + unlisted;

  // Only a workspace just opened gets a selection on its own; a search or a chip never moves it to
  // another row: a hidden selection stays selected and is said to be hidden (below).
  const first = initialSelection(rows, selectedId);
  useEffect(() => {
    if (first !== undefined) store.set({ selectedId: first });
  }, [first]);

  return (
    <aside className="sidebar" aria-label="Destinations">
      <HostsPanel />
      <div className="list-controls">
        <div className="search">
          <Icon name="search" />
          <label htmlFor={SEARCH_INPUT_ID} className="visually-hidden">
            Search destinations by id, pipeline id or path
          </label>
          <input
            id={SEARCH_INPUT_ID}
            type="search"
            placeholder="Search id, pipeline or path"
            value={filter.query}
            onChange={(event) => setFilter({ query: event.target.value })}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && filter.query !== '') {
                event.stopPropagation();
                setFilter({ query: '' });
              }
              // ↓ and Enter go on into the list (GitHub Desktop's filter does), on the selection when it
              // is shown, else on the first match.
              if ((event.key === 'ArrowDown' || event.key === 'Enter') && rows.length > 0) {
                event.preventDefault();
                if (!rows.some((row) => row.id === selectedId) || selectedIds.size > 1) selectDestination(rows[0]!.id, 'one');
                document.getElementById(DESTINATION_LIST_ID)?.focus();
              }
            }}
          />
          <kbd aria-hidden="true">/</kbd>
        </div>
        <div className="chips" role="group" aria-label="Filter by status (any of)">
          {STATUSES.map((status) => (
            <button
              key={status}
              type="button"
              className="chip"
              aria-pressed={filter.statuses.has(status)}
              title={STATUS_MEANING[status]}
              onClick={() => toggleStatus(status)}
            >
              <Icon name={statusIcon(status)} />
              {statusLabel(status)}
              <span className="count">{groupDigits(counts[status])}</span>
            </button>
          ))}
        </div>
        <div className="chips" role="group" aria-label="Filter by health (any of)">
          {HEALTH_CHIPS.map((mark) => (
            <button
              key={mark}
              type="button"
              className="chip"
              aria-pressed={filter.health.has(mark)}
              title={HEALTH_MEANING[mark]}
              onClick={() => toggleHealth(mark)}
            >
              <Icon name={HEALTH_LOOK[mark].icon} />
              {HEALTH_LOOK[mark].label}
              <span className="count">{groupDigits(healthCounts[mark])}</span>
            </button>
          ))}
        </div>
        <div className="chips" role="group" aria-label="Filter by sync with the configured source (any of)">
          {SYNC_KINDS.map((kind) => (
            <button
              key={kind}
              type="button"
              className="chip"
              aria-pressed={filter.sync.has(kind)}
              onClick={() => toggleSync(kind)}
              title={`sync: ${SYNC_LABELS[kind]} (what Compare decides against the configured source)`}
            >
              <Icon name={SYNC_LOOK[kind].icon} />
              {SYNC_LABELS[kind]}
              <span className="count">{groupDigits(syncCounts[kind])}</span>
            </button>
          ))}
        </div>
        <div className="list-meta">
          <span role="status" aria-live="polite" data-testid="list-count">
            {rows.length === total ? plural(total, 'destination') : `${groupDigits(rows.length)} of ${groupDigits(total)}`}
            {scanning > 0 ? ` · ${groupDigits(scanning)} scanning` : ''}
            {current.stale > 0 ? ` · ${groupDigits(current.stale)} on a lost host, not counted` : ''}
          </span>
          <label>
            Sort{' '}
            <select value={filter.sort} onChange={(event) => setFilter({ sort: event.target.value as SortKey })}>
              <option value="status">by status</option>
              <option value="health">by health (serious first)</option>
              <option value="id">by id</option>
              <option value="published">by published time</option>
            </select>
          </label>
          <label>
            Group{' '}
            <select value={filter.group ?? 'none'} onChange={(event) => setGroupBy(event.target.value as GroupBy)}>
              <option value="none">none</option>
              <option value="pipeline">by pipeline</option>
              <option value="host">by host</option>
            </select>
          </label>
          <button
            type="button"
            className="button small"
            aria-pressed={density === 'compact'}
            title="One line a destination, so more fit"
            onClick={() => setDensity(density === 'compact' ? 'comfortable' : 'compact')}
          >
            Compact
          </button>
        </div>
        <SelectionBar shown={rows.length} />
        {(placement === 'hidden' || placement === 'nothing_shown') && selectedId !== undefined && selectedIds.size < 2 && (
          <div className="hidden-selection" data-testid="hidden-selection">
            <Icon name="info" />
            <span>
              <strong>{selectedId}</strong> is selected, hidden by the filter
            </span>
            <button type="button" className="button small" onClick={showEverything}>
              Clear filters
            </button>
          </div>
        )}
      </div>
      <DestinationList
        rows={rows}
        selectedId={selectedId}
        isSelected={(id) => isSelected({ primary: selectedId, ids: selectedIds }, id)}
        onSelect={selectDestination}
        onSelectAll={selectAllShown}
        lostHosts={lostHosts}
        emptyText={total === 0 ? 'This workspace lists no destinations.' : 'No destination matches the search and filters.'}
        groups={groups}
        density={density}
        query={filter.query}
      />
    </aside>
  );
}
