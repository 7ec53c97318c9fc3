// The list's selection as the user changes it: a click (plain, ctrl/cmd, shift), select all shown,
// select all drifted, Escape. Thin: the rules are renderer/view/multiSelection.ts; this reads the
// shown rows and writes the store. The bulk ids are computed once per change and shared by every view.

import {
  bulkIds,
  collapse,
  selectAll,
  selectByGesture,
  selectOnly,
  withoutRemoved,
  type MultiSelection,
  type SelectGesture,
} from '../view/multiSelection';
import { shownRows } from './shownRows';
import { store, type AppState } from './store';

function selectionOf(state: AppState): MultiSelection {
  return { primary: state.selectedId, ids: state.selectedIds, anchor: state.selectionAnchor };
}

export function selectionPatch(selection: MultiSelection): Pick<AppState, 'selectedId' | 'selectedIds' | 'selectionAnchor'> {
  return { selectedId: selection.primary, selectedIds: selection.ids, selectionAnchor: selection.anchor };
}

/** A click on a shown row (or an arrow key: `one`, shift+arrow: `range`). */
export function selectDestination(id: string, gesture: SelectGesture = 'one'): void {
  store.set((state) => {
    const shownIds = shownRows(state).map((row) => row.id);
    return selectionPatch(selectByGesture(selectionOf(state), shownIds, id, gesture));
  });
}

/** One destination, as a plain click selects it. */
export function selectOneDestination(id: string | undefined): void {
  store.set(
    id === undefined ? { selectedId: undefined, selectedIds: new Set(), selectionAnchor: undefined } : selectionPatch(selectOnly(id)),
  );
}

/** Every row the list shows (with its filters). */
export function selectAllShown(): void {
  store.set((state) =>
    selectionPatch(
      selectAll(
        selectionOf(state),
        shownRows(state).map((row) => row.id),
      ),
    ),
  );
}

/** The ids of every drifted destination in the workspace, in the order the list would show them. */
export function driftedIds(state: AppState): string[] {
  return state.destinationTable
    .view({ statuses: new Set(), health: new Set(['drifted']), query: '' }, state.filter.sort)
    .map((row) => row.id);
}

/** Every destination verify found drifted, shown by the filter or not (the count says how many are hidden). */
export function selectAllDrifted(): void {
  store.set((state) => selectionPatch(selectAll(selectionOf(state), driftedIds(state))));
}

/** Escape: back to the one destination last clicked. */
export function collapseSelection(): void {
  store.set((state) => selectionPatch(collapse(selectionOf(state))));
}

/** After a re-read removed destinations: they leave the selection too. */
export function dropFromSelection(
  state: AppState,
  removed: ReadonlySet<string>,
): Pick<AppState, 'selectedId' | 'selectedIds' | 'selectionAnchor'> {
  return selectionPatch(withoutRemoved(selectionOf(state), removed));
}

export interface BulkSelection {
  /** Two or more selected, in the order shown, then those the filter hides (workspace order); [] when fewer are. */
  ids: string[];
  /** How many of them the filter hides. */
  hidden: number;
}

const NO_BULK: BulkSelection = { ids: [], hidden: 0 };
let lastBulk: { shown: unknown; ids: ReadonlySet<string>; destinations: unknown; value: BulkSelection } | undefined;

/** The bulk selection, computed once per change of the shown rows, the selection or the workspace. */
export function bulkSelection(state: AppState): BulkSelection {
  if (state.selectedIds.size < 2) return NO_BULK;
  const shown = shownRows(state);
  const destinations = state.workspace?.destinations;
  if (lastBulk && lastBulk.shown === shown && lastBulk.ids === state.selectedIds && lastBulk.destinations === destinations)
    return lastBulk.value;
  const shownIds = shown.map((row) => row.id);
  const ids = bulkIds(
    { ids: state.selectedIds },
    shownIds,
    (destinations ?? []).map((entry) => entry.id),
  );
  const shownCount = shownIds.reduce((count, id) => count + (state.selectedIds.has(id) ? 1 : 0), 0);
  const value = { ids, hidden: ids.length - shownCount };
  lastBulk = { shown, ids: state.selectedIds, destinations, value };
  return value;
}
