// The history journal as rows for the History tab and the workspace's History view: newest first,
// each with the words and tone of its outcome, what it did in counts, and the source it moved from
// and to. Pure; filters by action and outcome for the workspace view.

import type { HistoryRecord } from '../../shared/historySchema';
import { countsWords } from '../../shared/planCounts';
import { PLAN_KINDS } from '../../shared/planKinds';
import { plural } from './format';

export type HistoryOutcome = HistoryRecord['result']['outcome'];

export interface HistoryRow {
  key: string;
  at: string;
  action: string;
  actionLabel: string;
  destination: string;
  outcome: HistoryOutcome;
  tone: 'tone-good' | 'tone-warning' | 'tone-danger';
  /** "stale_plan: the destination changed since the plan" for a refusal or a failure. */
  reason?: string;
  counts: string;
  source: string;
  by: string;
  /** The workspace id it was applied to (absent for a record of a folder the CLI named by path). */
  destinationId?: string;
  /** The backup the apply kept (a restore: the one it put back). */
  backupId?: string;
  /** A repair that kept some drifted outputs as they are: "kept as it is: report.html". */
  kept?: string;
}

/** An apply's action as the history and the backups list word it ("forced replace", "discard staging"): its kind's title. */
export const applyActionLabel = (action: string) =>
  Object.hasOwn(PLAN_KINDS, action) ? PLAN_KINDS[action as keyof typeof PLAN_KINDS].title.toLowerCase() : action;
const TONES: Record<HistoryOutcome, HistoryRow['tone']> = { applied: 'tone-good', refused: 'tone-warning', failed: 'tone-danger' };
const TRANSPORT_LABELS: Record<string, string> = { electron: 'desktop app', http: 'browser host', agent: 'agent', cli: 'command line' };

const shortDigest = (digest: string) => digest.replace(/^sha256:/, '').slice(0, 12);

export function sourceText(record: Pick<HistoryRecord, 'sourceBefore' | 'sourceAfter'>): string {
  const { sourceBefore: before, sourceAfter: after } = record;
  if (!before && !after) return '—';
  if (before && after && before.id === after.id)
    return before.digest === after.digest ? after.id : `${after.id} (${shortDigest(before.digest)} → ${shortDigest(after.digest)})`;
  if (!after) return `${before!.id} (unchanged)`;
  return `${before?.id ?? 'none'} → ${after.id}`;
}

/**
 * What the apply did, in the one vocabulary of counts (shared/planCounts.ts) when the record carries
 * them: done for an applied one, "planned: …" for one refused or failed. A record written before
 * them says what it knew: how many paths were removed and written.
 */
export function countsText(record: Pick<HistoryRecord, 'counts' | 'changes' | 'result'>): string {
  const { changes, counts } = record;
  if (changes) return record.result.outcome === 'applied' ? countsWords(changes, 'done') : `planned: ${countsWords(changes, 'plan')}`;
  const parts = [`${plural(counts.write, 'path')} written`, `${plural(counts.delete, 'path')} removed`];
  if (counts.keep !== undefined) parts.push(`${plural(counts.keep, 'path')} kept`);
  return parts.join(', ');
}

/** "kept as they are: a.html, b.html and 3 more", for a repair that kept some; undefined otherwise. */
export function keptText(record: Pick<HistoryRecord, 'repair'>, limit = 3): string | undefined {
  const kept = record.repair?.kept;
  if (!kept || kept.count === 0) return undefined;
  const more = kept.count > limit ? ` and ${kept.count - limit} more` : '';
  return `kept as ${kept.count === 1 ? 'it is' : 'they are'}: ${kept.paths.slice(0, limit).join(', ')}${more}`;
}

export function historyRows(records: readonly HistoryRecord[]): HistoryRow[] {
  return records
    .map((record, index) => ({
      key: `${index}:${record.at}`,
      at: record.at,
      action: record.action,
      actionLabel: applyActionLabel(record.action),
      destination: record.destination.id ?? record.destination.path,
      outcome: record.result.outcome,
      tone: TONES[record.result.outcome],
      ...(record.result.code ? { reason: `${record.result.code}${record.result.message ? `: ${record.result.message}` : ''}` } : {}),
      counts: countsText(record),
      source: sourceText(record),
      by: `${record.user}@${record.host}, ${TRANSPORT_LABELS[record.transport] ?? record.transport}`,
      ...(record.destination.id !== undefined ? { destinationId: record.destination.id } : {}),
      ...(record.backupId !== undefined ? { backupId: record.backupId } : {}),
      ...(keptText(record) !== undefined ? { kept: keptText(record) } : {}),
    }))
    .reverse();
}

export interface HistoryFilter {
  action?: string;
  outcome?: HistoryOutcome;
}

export function filterHistoryRows(rows: readonly HistoryRow[], filter: HistoryFilter): HistoryRow[] {
  return rows.filter((row) => (!filter.action || row.action === filter.action) && (!filter.outcome || row.outcome === filter.outcome));
}

/** The actions present, for the filter's choices. */
export function historyActions(rows: readonly HistoryRow[]): { action: string; label: string }[] {
  const seen = new Map<string, string>();
  for (const row of rows) seen.set(row.action, row.actionLabel);
  return [...seen].map(([action, label]) => ({ action, label }));
}
