// Where the selected destination stands against the list as filtered: shown, hidden by the filter,
// or the filter shows nothing at all. Pure: no DOM. The list never moves the selection to another row
// on its own; the views say what this module answers instead (docs/renderer.md, "Selection").

import type { DestinationRow } from './destinationRows';

/**
 * - `none`: nothing is selected.
 * - `shown`: the selected row is in the list.
 * - `hidden`: the list shows other rows; the selected one is hidden by the filter (it stays selected).
 * - `nothing_shown`: the filter matches no row; the selection is kept for when the filter is cleared,
 *   but no destination is shown in the detail pane.
 */
export type SelectionPlacement = 'none' | 'shown' | 'hidden' | 'nothing_shown';

export function placeSelection(rows: readonly DestinationRow[], selectedId: string | undefined): SelectionPlacement {
  if (selectedId === undefined) return 'none';
  if (rows.length === 0) return 'nothing_shown';
  for (let i = 0; i < rows.length; i += 1) if (rows[i]!.id === selectedId) return 'shown';
  return 'hidden';
}

/** The row to select on its own: only the first row of a list with nothing selected yet (a workspace just opened). */
export function initialSelection(rows: readonly DestinationRow[], selectedId: string | undefined): string | undefined {
  return selectedId === undefined ? rows[0]?.id : undefined;
}
