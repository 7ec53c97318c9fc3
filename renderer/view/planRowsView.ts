// The plan's rows as the confirmation lists them: the words beside each path, and the filter (text in
// the path, and which kinds are shown). Pure. Filtering only hides rows from view: the totals stay
// the plan's, and the list says how many are shown of how many.

import type { ReplacePlan } from '../../shared/plan';
import { planDocument, type PlanRow, type PlanRowKind } from '../../shared/planRows';
import { formatBytes, plural } from './format';
import { countEntries, countsWords } from '../../shared/planCounts';

export const CHANGED_ROW_WORDS = 'changed on disk since published: will be lost';

/** "120 B (was 80 B) · generated from report.md": what the list says beside a path. */
export function planRowDetail(row: PlanRow): string {
  const words: string[] = [];
  if (row.type === 'state') words.push('state file');
  else if (row.type !== 'file') words.push(row.type);
  if (row.size !== undefined && row.type !== 'directory')
    words.push(row.oldSize !== undefined ? `${formatBytes(row.size)} (was ${formatBytes(row.oldSize)})` : formatBytes(row.size));
  if (row.write) words.push(row.write.kind === 'generated' ? `generated from ${row.write.sourcePath}` : 'copied');
  if (row.kind === 'unchanged') words.push('same bytes, written again');
  if (row.note && row.note !== 'extra') words.push(row.note);
  if (row.changed) words.push(CHANGED_ROW_WORDS);
  return words.join(' · ');
}

/**
 * "delete 2 files and 1 folder": a kind's toggle in the one vocabulary of counts (shared/planCounts.ts),
 * so the chips add up to the sentence on the confirm button; "1 file unchanged" for the same bytes written again.
 */
export function rowKindWords(rows: readonly PlanRow[], kind: PlanRowKind): string {
  const ofKind = rows.filter((row) => row.kind === kind);
  if (kind === 'unchanged') return `${plural(ofKind.length, 'file')} unchanged`;
  const change = kind === 'keep' ? 'keep' : kind;
  return countsWords(
    countEntries(ofKind.map((row) => ({ path: row.path, change, ...(row.type === 'directory' ? { folder: true } : {}) }))),
  );
}

export interface PlanRowFilter {
  text: string;
  hidden: ReadonlySet<PlanRowKind>;
}

/** The rows shown: of a kind not hidden, whose path holds the text (case-insensitive). */
export function filterPlanRows(rows: readonly PlanRow[], { text, hidden }: PlanRowFilter): PlanRow[] {
  const needle = text.trim().toLowerCase();
  return rows.filter((row) => !hidden.has(row.kind) && (needle === '' || row.path.toLowerCase().includes(needle)));
}

/** The exported plan: its file name (destination folder and plan time) and the JSON, rows and totals beside the plan. */
export function planExport(plan: ReplacePlan): { fileName: string; content: string } {
  const folder = plan.destinationPath.split(/[\\/]/).filter(Boolean).at(-1) ?? 'destination';
  const stamp = plan.plannedAt.replace(/[:.]/g, '-');
  const safe = folder.replace(/[^A-Za-z0-9._-]+/g, '_');
  return { fileName: `plan-${plan.mode}-${safe}-${stamp}.json`, content: `${JSON.stringify(planDocument(plan), null, 2)}\n` };
}
