// Several destinations selected at once, the way a file manager selects: a click selects one, a
// ctrl/cmd-click adds or removes one, a shift-click selects the range of shown rows between the anchor
// (the last row clicked without shift) and the row clicked, ctrl+shift adds that range. Pure: no DOM,
// no store. The primary is the destination the detail pane shows when only one is selected; with two
// or more, the bulk panel shows them all (docs/destination-list.md, "Several destinations").
// Never selects a row it was not asked to: a range covers shown rows only, never rows the filter hides.

export interface MultiSelection {
  /** The last destination clicked; the one shown when only one is selected. */
  primary: string | undefined;
  /** Every selected destination, the primary among them; empty when nothing is selected. */
  ids: ReadonlySet<string>;
  /** Where a shift-click's range starts: the last row clicked (or toggled) without shift. */
  anchor: string | undefined;
}

export type SelectGesture = 'one' | 'toggle' | 'range' | 'add_range';

export const NO_SELECTION: MultiSelection = { primary: undefined, ids: new Set(), anchor: undefined };

/** What a click with these keys does: ctrl or cmd toggles, shift selects a range, both add the range. */
export function gestureOf(keys: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }): SelectGesture {
  const toggle = keys.ctrlKey || keys.metaKey;
  if (keys.shiftKey) return toggle ? 'add_range' : 'range';
  return toggle ? 'toggle' : 'one';
}

export function selectOnly(id: string): MultiSelection {
  return { primary: id, ids: new Set([id]), anchor: id };
}

/** The shown rows from `from` to `to`, both included, in the order shown; empty when either is not shown. */
export function shownRange(shownIds: readonly string[], from: string, to: string): string[] {
  const start = shownIds.indexOf(from);
  const end = shownIds.indexOf(to);
  if (start < 0 || end < 0) return [];
  return shownIds.slice(Math.min(start, end), Math.max(start, end) + 1);
}

/** The selection after a click on `id` (a shown row) with the gesture its keys make. */
export function selectByGesture(
  selection: MultiSelection,
  shownIds: readonly string[],
  id: string,
  gesture: SelectGesture,
): MultiSelection {
  if (gesture === 'one') return selectOnly(id);
  if (gesture === 'toggle') {
    const ids = new Set(selection.ids);
    // A single selection kept only as the primary (set before several could be selected) counts as selected.
    if (ids.size === 0 && selection.primary !== undefined) ids.add(selection.primary);
    if (!ids.has(id)) {
      ids.add(id);
      return { primary: id, ids, anchor: id };
    }
    ids.delete(id);
    const primary =
      selection.primary !== id && selection.primary !== undefined && ids.has(selection.primary) ? selection.primary : lastOf(ids);
    return { primary, ids, anchor: id };
  }
  // A range starts at the anchor, else at the primary; neither shown, the click selects the one row.
  const from = [selection.anchor, selection.primary].find((candidate) => candidate !== undefined && shownIds.includes(candidate));
  if (from === undefined) return selectOnly(id);
  const range = shownRange(shownIds, from, id);
  const ids = gesture === 'add_range' ? new Set([...selection.ids, ...range]) : new Set(range);
  return { primary: id, ids, anchor: from };
}

function lastOf(ids: ReadonlySet<string>): string | undefined {
  let last: string | undefined;
  for (const id of ids) last = id;
  return last;
}

/** Every id given (select all shown, select all drifted); the primary kept when it is among them. */
export function selectAll(selection: MultiSelection, ids: readonly string[]): MultiSelection {
  if (ids.length === 0) return selection;
  const primary = selection.primary !== undefined && ids.includes(selection.primary) ? selection.primary : ids[0];
  return { primary, ids: new Set(ids), anchor: primary };
}

/** Escape: back to the one destination last clicked (nothing, when none was). */
export function collapse(selection: MultiSelection): MultiSelection {
  return selection.primary === undefined ? NO_SELECTION : selectOnly(selection.primary);
}

/** Whether a row shows as selected: in the set when several are, else when it is the primary. */
export function isSelected(selection: Pick<MultiSelection, 'primary' | 'ids'>, id: string): boolean {
  return selection.ids.size >= 2 ? selection.ids.has(id) : selection.primary === id;
}

/** The destinations a bulk action runs on: two or more selected, in the order shown, then those the filter hides (workspace order). */
export function bulkIds(selection: Pick<MultiSelection, 'ids'>, shownIds: readonly string[], workspaceIds: readonly string[]): string[] {
  if (selection.ids.size < 2) return [];
  const shown = shownIds.filter((id) => selection.ids.has(id));
  const shownSet = new Set(shown);
  const hidden = workspaceIds.filter((id) => selection.ids.has(id) && !shownSet.has(id));
  return [...shown, ...hidden];
}

/** The selection without destinations the workspace no longer lists (a re-read removed them). */
export function withoutRemoved(selection: MultiSelection, removed: ReadonlySet<string>): MultiSelection {
  if (removed.size === 0) return selection;
  const ids = new Set([...selection.ids].filter((id) => !removed.has(id)));
  const primary = selection.primary !== undefined && !removed.has(selection.primary) ? selection.primary : lastOf(ids);
  const anchor = selection.anchor !== undefined && !removed.has(selection.anchor) ? selection.anchor : primary;
  return { primary, ids, anchor };
}
