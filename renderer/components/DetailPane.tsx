// The right pane: the selected destination's header and its tabs (Overview, Outputs, Compare,
// Raw state, Actions, Backups, History). Loads the destination once per selection and after it changes on disk.
// With two or more destinations selected it shows the bulk panel instead (BulkPanel.tsx).

import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useShownInspection } from '../hooks/useShownInspection';
import { selectionPlacement } from '../state/shownRows';
import { useAppState } from '../state/store';
import { bulkSelection } from '../state/selectionActions';
import { BulkPanel } from './BulkPanel';
import { Callout } from './Callout';
import { NoDestinationSelected } from './NoDestinationSelected';
import { ActionsTab } from './ActionsTab';
import { CompareTab } from './CompareTab';
import { OutputsTab } from './OutputsTab';
import { OverviewTab } from './OverviewTab';
import { RawStateTab } from './RawStateTab';
import { HistoryTab } from './HistoryTab';
import { BackupsTab } from './BackupsTab';
import { showBackup } from '../state/actions';
import { StatusBadge, VerifyMark } from './StatusBadge';
import { groupDigits } from '../../shared/issueCap';
import { verifyHealth } from '../../shared/verifyFreshness';
import { verifiedFactsOf } from '../view/destinationRows';
import { countIssues } from '../../shared/issues';
import { SECTION_GOALS, type SectionGoal } from '../view/sectionGoals';
import { reveal } from './RequestedResult';

const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'outputs', label: 'Outputs' },
  { id: 'compare', label: 'Compare' },
  { id: 'raw', label: 'Raw state' },
  { id: 'actions', label: 'Actions' },
  { id: 'backups', label: 'Backups' },
  { id: 'history', label: 'History' },
] as const;
type TabId = (typeof TABS)[number]['id'];

export function DetailPane() {
  const bulk = useAppState(bulkSelection);
  if (bulk.ids.length >= 2) return <BulkPanel ids={bulk.ids} hidden={bulk.hidden} />;
  return <OneDestination />;
}

function OneDestination() {
  const selectedId = useAppState((state) => state.selectedId);
  // Asked on every change of the store: no walk of a 100,000-destination list while nothing is selected.
  const entry = useAppState((state) =>
    state.selectedId === undefined ? undefined : state.workspace?.destinations.find((destination) => destination.id === state.selectedId),
  );
  const verified = useAppState((state) => (state.selectedId ? state.destinationTable.verifyEntry(state.selectedId) : undefined));
  const heldBack = useAppState((state) => (state.selectedId ? state.autoVerifySkipped?.get(state.selectedId) : undefined));
  const freshness = useAppState((state) => (state.selectedId ? state.destinationTable.verifyFreshness(state.selectedId) : undefined));
  const [tab, setTab] = useState<TabId>('overview');
  const tabRefs = useRef(new Map<TabId, HTMLButtonElement>());
  // Where the user left each tab of each destination: a tab opens there, or at its top, never at the
  // offset of the tab shown before it (the panel is one scroller for every tab).
  const offsets = useRef(new Map<string, number>());
  const panel = useRef<HTMLDivElement>(null);
  const shownKey = `${selectedId ?? ''}\u0000${tab}`;
  const shown = useRef(shownKey);
  /** The panel element the effect below last placed: another one is new, at its top. */
  const placed = useRef<HTMLDivElement | null>(null);
  // A banner's button asked for a section of another tab: that tab opens on it, not at its offset.
  const [goal, setGoal] = useState<{ id: string; at: number } | undefined>();
  const goalHandled = useRef(0);
  const goTo = (wanted: SectionGoal) => {
    setTab(SECTION_GOALS[wanted].tab);
    setGoal((current) => ({ id: SECTION_GOALS[wanted].id, at: (current?.at ?? 0) + 1 }));
  };
  useLayoutEffect(() => {
    shown.current = shownKey;
    const element = panel.current;
    if (!element) return undefined;
    const target = goal && goal.at !== goalHandled.current ? goal.id : undefined;
    if (goal) goalHandled.current = goal.at;
    const wanted = offsets.current.get(shownKey) ?? 0;
    // A panel just mounted stands at its top: setting and reading its offset would lay the page out
    // inside this commit (the pane's first show, while a scan's rows stream in).
    const fresh = element !== placed.current;
    placed.current = element;
    if (fresh && !target && wanted === 0) return undefined;
    // The section to go to is in view and focused once it is there; otherwise the tab's own offset.
    const place = target
      ? () => {
          const section = element.querySelector<HTMLElement>(`#${target}`);
          reveal(section);
          return section !== null;
        }
      : () => {
          element.scrollTop = wanted;
          return element.scrollTop >= wanted;
        };
    if (place()) return undefined;
    // Part of the tab is still arriving (a section that loads): place it again, a frame at a time,
    // until it is there, for at most two seconds, and never once the user scrolls.
    let frames = 0;
    let handle = 0;
    const stop = () => {
      cancelAnimationFrame(handle);
      for (const type of ['wheel', 'pointerdown', 'keydown'] as const) element.removeEventListener(type, stop);
    };
    const again = () => {
      if (place() || (frames += 1) > 120) stop();
      else handle = requestAnimationFrame(again);
    };
    for (const type of ['wheel', 'pointerdown', 'keydown'] as const) element.addEventListener(type, stop);
    handle = requestAnimationFrame(again);
    return stop;
  }, [shownKey, goal]);
  const placement = useAppState(selectionPlacement);
  const nothingShown = placement === 'nothing_shown';
  const { state, data } = useShownInspection(nothingShown ? undefined : selectedId);
  // A history entry's link to its backup: open the Backups tab on it (once per click).
  const backupFocus = useAppState((state) => state.backupFocus);
  const [focusSeen, setFocusSeen] = useState(0);
  if (backupFocus && backupFocus.at !== focusSeen && backupFocus.destination === selectedId) {
    setFocusSeen(backupFocus.at);
    setTab('backups');
  }
  const focusBackup = backupFocus?.destination === selectedId ? backupFocus?.backupId : undefined;

  if (nothingShown) {
    // The list is empty: showing a destination that is not in it would be a picture of nothing the operator chose.
    return (
      <main className="detail">
        <div className="placeholder" data-testid="detail-nothing-shown">
          <h2>No destination matches</h2>
          <p>
            The search and filters match no destination. <strong>{selectedId}</strong> stays selected, hidden by the filter: clear the
            search to see it again.
          </p>
        </div>
      </main>
    );
  }

  if (!entry) return <NoDestinationSelected />;

  const onTabKey = (event: KeyboardEvent) => {
    const index = TABS.findIndex((candidate) => candidate.id === tab);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = TABS[(index + step + TABS.length) % TABS.length]!.id;
    setTab(next);
    tabRefs.current.get(next)?.focus();
  };

  const facts = verifiedFactsOf(verified, freshness);
  const status = data?.inspection.status;
  // Exact also when the list is capped: a summary issue counts as the issues it stands for.
  const counted = data ? countIssues(data.inspection.issues) : undefined;
  const issueCount = counted ? counted.errors + counted.warnings : 0;

  return (
    <main className="detail" aria-labelledby="detail-title">
      <header className="detail-header">
        <h1 id="detail-title">
          {entry.id}
          {data && <StatusBadge status={status} />}
          {status === 'managed' && <VerifyMark mark={verifyHealth(facts)} verified={facts} detail heldBack={heldBack} />}
          {placement === 'hidden' && (
            <span className="badge outline tone-neutral" data-testid="selected-hidden">
              selected, hidden by the filter
            </span>
          )}
        </h1>
        <div className="path">{entry.path}</div>
      </header>
      <div className="tabs" role="tablist" aria-label="Destination views" onKeyDown={onTabKey}>
        {TABS.map((candidate) => (
          <button
            key={candidate.id}
            ref={(element) => void (element ? tabRefs.current.set(candidate.id, element) : tabRefs.current.delete(candidate.id))}
            type="button"
            role="tab"
            id={`tab-${candidate.id}`}
            aria-selected={tab === candidate.id}
            aria-controls={`panel-${candidate.id}`}
            tabIndex={tab === candidate.id ? 0 : -1}
            className="tab"
            onClick={() => setTab(candidate.id)}
          >
            {candidate.label}
            {candidate.id === 'raw' && issueCount > 0 && <span className="counter">{groupDigits(issueCount)}</span>}
          </button>
        ))}
      </div>
      <div
        ref={panel}
        onScroll={(event) => offsets.current.set(shown.current, event.currentTarget.scrollTop)}
        role="tabpanel"
        id={`panel-${tab}`}
        aria-labelledby={`tab-${tab}`}
        className={`tab-panel ${tab === 'raw' ? 'fill' : ''}`}
        tabIndex={0}
      >
        {state.status === 'loading' && !data && <p role="status">Loading {entry.id}…</p>}
        {state.status === 'error' && (
          <Callout tone="danger" title={`Could not read ${entry.id}`} role="alert">
            <p>{state.error.message}</p>
          </Callout>
        )}
        {data && tab === 'overview' && <OverviewTab data={data} entry={entry} onGoTo={goTo} />}
        {data && tab === 'outputs' && <OutputsTab data={data} entry={entry} />}
        {tab === 'compare' && <CompareTab key={entry.id} entry={entry} status={data?.inspection.status} onGoTo={goTo} />}
        {data && tab === 'raw' && <RawStateTab inspection={data.inspection} />}
        {tab === 'actions' && <ActionsTab key={entry.id} entry={entry} issues={data?.inspection.issues} status={data?.inspection.status} />}
        {tab === 'backups' && <BackupsTab key={entry.id} entry={entry} focusBackup={focusBackup} />}
        {tab === 'history' && <HistoryTab key={entry.id} entry={entry} onShowBackup={showBackup} />}
      </div>
    </main>
  );
}
