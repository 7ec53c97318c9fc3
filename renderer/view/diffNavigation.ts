// Walking a diff with the keyboard: where each block of changed lines starts among the rows drawn
// (unified or side by side), and which one is next or previous from where the reader is. F7/F8 and
// Alt+↑/↓ step through them. Pure over the rows; nothing here touches the DOM.

import type { TextDiff } from '../../shared/contentDiff/textDiff';
import type { SplitRow, UnifiedRow } from './contentDiffRows';

function isChange(diff: TextDiff, row: UnifiedRow | SplitRow): boolean {
  const changed = (index: number | undefined) => index !== undefined && diff.rows[index]!.kind !== 'context';
  if (row.type === 'line') return changed(row.row);
  if (row.type === 'pair') return changed(row.left) || changed(row.right);
  return false;
}

export interface ChangeRun {
  /** The first row of the run (an index into the rows drawn). */
  start: number;
  /** One past its last row. */
  end: number;
}

/** Each run of changed rows, in order. */
export function changeRuns(diff: TextDiff, rows: readonly (UnifiedRow | SplitRow)[]): ChangeRun[] {
  const runs: ChangeRun[] = [];
  for (let index = 0; index < rows.length; index += 1) {
    if (!isChange(diff, rows[index]!)) continue;
    const start = index;
    while (index + 1 < rows.length && isChange(diff, rows[index + 1]!)) index += 1;
    runs.push({ start, end: index + 1 });
  }
  return runs;
}

/**
 * The change to go to from the one shown (`current`, -1 before any): the next or previous, staying
 * at the first or the last (no wrap, so the reader knows the walk has ended); -1 when there are none.
 */
export function stepChange(count: number, current: number, direction: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return direction === 1 ? 0 : count - 1;
  return Math.max(0, Math.min(count - 1, current + direction));
}

/** The next or previous of a list of paths from the one shown, wrapping (drifted files to review). */
export function stepPath(paths: readonly string[], current: string | undefined, direction: 1 | -1): string | undefined {
  if (paths.length === 0) return undefined;
  const at = current === undefined ? -1 : paths.indexOf(current);
  if (at < 0) return direction === 1 ? paths[0] : paths[paths.length - 1];
  return paths[(at + direction + paths.length) % paths.length];
}
