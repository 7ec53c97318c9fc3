// The rows the sidebar shows (the table filtered and sorted) and where the selection stands against
// them, computed once per change of table, filter or selection and shared by every view that asks
// (the sidebar, the detail pane), never once per view per render.

import type { DestinationRow } from '../view/destinationRows';
import { groupRows, type GroupedRows } from '../view/listGroups';
import { placeSelection, type SelectionPlacement } from '../view/selection';
import type { AppState } from './store';

let lastRows: { table: AppState['destinationTable']; filter: AppState['filter']; grouped: GroupedRows } | undefined;
let lastPlacement: { rows: readonly DestinationRow[]; selectedId: string | undefined; placement: SelectionPlacement } | undefined;

/** The shown rows and, when the list is grouped, where each group starts (its rows are together). */
export function shownGroupedRows(state: AppState): GroupedRows {
  if (lastRows && lastRows.table === state.destinationTable && lastRows.filter === state.filter) return lastRows.grouped;
  const grouped = groupRows(state.destinationTable.view(state.filter, state.filter.sort), state.filter.group ?? 'none');
  lastRows = { table: state.destinationTable, filter: state.filter, grouped };
  return grouped;
}

/** The rows in the order the list shows them (grouped when it is): ranges and arrow keys follow it. */
export function shownRows(state: AppState): readonly DestinationRow[] {
  return shownGroupedRows(state).rows;
}

export function selectionPlacement(state: AppState): SelectionPlacement {
  const rows = shownRows(state);
  if (lastPlacement && lastPlacement.rows === rows && lastPlacement.selectedId === state.selectedId) return lastPlacement.placement;
  const placement = placeSelection(rows, state.selectedId);
  lastPlacement = { rows, selectedId: state.selectedId, placement };
  return placement;
}
