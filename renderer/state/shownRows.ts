// The rows the sidebar shows (the table filtered and sorted) and where the selection stands against
// them, computed once per change of table, filter or selection and shared by every view that asks
// (the sidebar, the detail pane), never once per view per render.

import type { DestinationRow } from '../view/destinationRows';
import { placeSelection, type SelectionPlacement } from '../view/selection';
import type { AppState } from './store';

let lastRows: { table: AppState['destinationTable']; filter: AppState['filter']; rows: readonly DestinationRow[] } | undefined;
let lastPlacement: { rows: readonly DestinationRow[]; selectedId: string | undefined; placement: SelectionPlacement } | undefined;

export function shownRows(state: AppState): readonly DestinationRow[] {
  if (lastRows && lastRows.table === state.destinationTable && lastRows.filter === state.filter) return lastRows.rows;
  const rows = state.destinationTable.view(state.filter, state.filter.sort);
  lastRows = { table: state.destinationTable, filter: state.filter, rows };
  return rows;
}

export function selectionPlacement(state: AppState): SelectionPlacement {
  const rows = shownRows(state);
  if (lastPlacement && lastPlacement.rows === rows && lastPlacement.selectedId === state.selectedId) return lastPlacement.placement;
  const placement = placeSelection(rows, state.selectedId);
  lastPlacement = { rows, selectedId: state.selectedId, placement };
  return placement;
}
