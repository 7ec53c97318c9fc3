// The one vocabulary of counts (issue 28 §5): what a plan of any kind (a replace, a forced replace, a
// repair, a discard of staging, a restore) does to a destination, as created / updated / deleted /
// kept, with the bytes of each, the state file counted once (in the bucket it falls in, and said so),
// and the folders removed or made told apart from files. Every dialog, the CLI, the journal and the
// history read these numbers and these words; none counts a plan itself. Counted over the plan's
// entries, so a plan whose entries the operator narrows (repair's per-file selection) or a kind
// that only writes a state (adopt) is counted by the same function. Pure.

import { formatBytes } from './byteSize';
import { planRows, type PlanRow } from './planRows';
import { planKindOf } from './planKinds';
import type { ChangeCounts, CountedChange, ReplacePlan } from './planSchema';
import { STATE_FILE_NAME } from './stateSchema';

export { COUNTED_CHANGES, type ChangeCounts, type CountedChange } from './planSchema';

/** One path a plan names, as the counts see it. */
export interface CountedEntry {
  path: string;
  change: CountedChange;
  /** A folder: counted apart from files (a folder removed or made whole, not a file lost or new). */
  folder?: boolean;
  /** The bytes at the path after the apply (create, update) or now (delete, keep); absent when not known. */
  sizeBytes?: number;
}

/**
 * The counts of several plans (a bulk run), bucket by bucket. Each destination has its own state
 * file, so the sum names none of them: its words say "files", the state files among them.
 */
export function addCounts(all: readonly ChangeCounts[]): ChangeCounts {
  const sum = emptyCounts();
  for (const counts of all) for (const key of Object.keys(sum) as (keyof Omit<ChangeCounts, 'stateFile'>)[]) sum[key] += counts[key];
  return sum;
}

export function emptyCounts(): ChangeCounts {
  return {
    created: 0,
    updated: 0,
    deleted: 0,
    kept: 0,
    createdBytes: 0,
    updatedBytes: 0,
    deletedBytes: 0,
    foldersCreated: 0,
    foldersDeleted: 0,
  };
}

/** The counts of a list of entries; a path named twice is counted once, by its last entry. */
export function countEntries(entries: readonly CountedEntry[]): ChangeCounts {
  const byPath = new Map(entries.map((entry) => [entry.path, entry]));
  const counts = emptyCounts();
  for (const entry of byPath.values()) {
    const size = entry.sizeBytes ?? 0;
    if (entry.path === STATE_FILE_NAME) counts.stateFile = entry.change;
    if (entry.folder) {
      if (entry.change === 'create') counts.foldersCreated += 1;
      if (entry.change === 'delete') counts.foldersDeleted += 1;
      continue;
    }
    if (entry.change === 'create') {
      counts.created += 1;
      counts.createdBytes += size;
    } else if (entry.change === 'update') {
      counts.updated += 1;
      counts.updatedBytes += size;
    } else if (entry.change === 'delete') {
      counts.deleted += 1;
      counts.deletedBytes += size;
    } else counts.kept += 1;
  }
  return counts;
}

const ROW_CHANGE: Record<PlanRow['kind'], CountedChange> = {
  create: 'create',
  update: 'update',
  delete: 'delete',
  // The same bytes written again: nothing an operator could lose or gain, so it counts as kept.
  unchanged: 'keep',
  keep: 'keep',
};

/** A plan's entries (its rows, shared/planRows.ts), the state file named even where the kind keeps it. */
export function planEntries(plan: ReplacePlan): CountedEntry[] {
  const entries = planRows(plan).rows.map((row): CountedEntry => ({
    path: row.path,
    change: ROW_CHANGE[row.kind],
    ...(row.type === 'directory' ? { folder: true } : {}),
    ...(row.size !== undefined ? { sizeBytes: row.size } : {}),
  }));
  // A repair's drifted outputs the operator chose to leave as they are: named, and kept.
  for (const entry of plan.repair?.kept ?? [])
    if (!entries.some((named) => named.path === entry.path)) entries.push({ path: entry.path, change: 'keep' });
  const facts = planKindOf(plan.mode);
  // A repair or a discard keeps the state as it is: said, so "the state file stays" is never a guess.
  if (facts.keepsState && plan.action !== 'nothing' && !entries.some((entry) => entry.path === STATE_FILE_NAME))
    entries.push({ path: STATE_FILE_NAME, change: 'keep' });
  return entries;
}

export const planCounts = (plan: ReplacePlan): ChangeCounts => countEntries(planEntries(plan));

/** The restore plan's fields the counts read (backupSchema.ts's RestorePlan, without importing zod here). */
export interface RestoreCountInput {
  removes: readonly { path: string; type: string; size: number }[];
  removeStaging: readonly string[];
  puts: readonly { path: string; type: string; size: number }[];
}

/** A restore: what it removes and puts back; a path removed and put back is an update. */
export function restoreEntries(plan: RestoreCountInput): CountedEntry[] {
  const removed = new Set(plan.removes.map((entry) => entry.path));
  const entries: CountedEntry[] = [];
  const put = new Set(plan.puts.map((entry) => entry.path));
  for (const entry of plan.removes)
    if (!put.has(entry.path))
      entries.push({ path: entry.path, change: 'delete', sizeBytes: entry.size, ...(entry.type === 'directory' ? { folder: true } : {}) });
  for (const path of plan.removeStaging) entries.push({ path, change: 'delete', folder: true });
  for (const entry of plan.puts)
    entries.push({
      path: entry.path,
      change: removed.has(entry.path) ? 'update' : 'create',
      sizeBytes: entry.size,
      ...(entry.type === 'directory' ? { folder: true } : {}),
    });
  return entries;
}

export const restoreCounts = (plan: RestoreCountInput): ChangeCounts => countEntries(restoreEntries(plan));

// ---- Words ----

const count = (n: number) => n.toLocaleString('en-US');
const files = (n: number) => `${count(n)} ${n === 1 ? 'file' : 'files'}`;
const folders = (n: number) => `${count(n)} ${n === 1 ? 'folder' : 'folders'}`;

type Tense = 'plan' | 'done';
const VERBS: Record<Tense, Record<CountedChange, string>> = {
  plan: { create: 'create', update: 'update', delete: 'delete', keep: 'keep' },
  done: { create: 'created', update: 'updated', delete: 'deleted', keep: 'kept' },
};

/** Whether the plan only adds: nothing that was there is updated or deleted (a first publish). */
export function onlyCreates(counts: ChangeCounts): boolean {
  return counts.updated === 0 && counts.deleted === 0 && counts.foldersDeleted === 0 && counts.created + counts.foldersCreated > 0;
}

/**
 * "create 2 files, update 3 files (the state file among them), delete 2 files and 1 folder, keep 1 file":
 * each bucket with something in it, the state file said where it is counted. `done`: the past tense,
 * for a result and the history. "no file changes" when every bucket but kept is empty.
 */
export function countsWords(counts: ChangeCounts, tense: Tense = 'plan', options: { kept?: boolean } = {}): string {
  const verbs = VERBS[tense];
  const stateOne = (change: CountedChange, n: number) =>
    counts.stateFile === change ? (n === 1 ? ' (the state file)' : ' (the state file among them)') : '';
  const parts: string[] = [];
  const bucket = (change: CountedChange, n: number, extraFolders = 0) => {
    if (n === 0 && extraFolders === 0) return;
    const what = [n > 0 ? `${files(n)}${stateOne(change, n)}` : '', extraFolders > 0 ? folders(extraFolders) : '']
      .filter(Boolean)
      .join(' and ');
    parts.push(`${verbs[change]} ${what}`);
  };
  bucket('create', counts.created, counts.foldersCreated);
  bucket('update', counts.updated);
  bucket('delete', counts.deleted, counts.foldersDeleted);
  const changes = parts.length;
  if (options.kept !== false) bucket('keep', counts.kept);
  if (changes === 0) parts.unshift(tense === 'plan' ? 'change no file' : 'changed no file');
  return parts.join(', ');
}

/** "keep 2 files (the state file among them)": what stays, beside the counts of a plan; "" when nothing is named as kept. */
export function keptWords(counts: ChangeCounts, tense: Tense = 'plan'): string {
  if (counts.kept === 0) return '';
  const state = counts.stateFile === 'keep' ? (counts.kept === 1 ? ' (the state file)' : ' (the state file among them)') : '';
  return `${VERBS[tense].keep} ${files(counts.kept)}${state}`;
}

/** "252 B written, 76 B removed": the bytes beside the counts (the parts with none left out). */
export function countsBytesWords(counts: ChangeCounts): string {
  const written = counts.createdBytes + counts.updatedBytes;
  const parts = [
    written > 0 ? `${formatBytes(written)} written` : '',
    counts.deletedBytes > 0 ? `${formatBytes(counts.deletedBytes)} removed` : '',
  ];
  return parts.filter(Boolean).join(', ');
}

/**
 * The action's title for these counts: a replace (or a forced one) that only creates, into an empty
 * or missing folder, is a "Publish"; every other plan has its kind's title.
 */
export function countsTitle(kind: string | undefined, counts: ChangeCounts): string {
  const facts = planKindOf(kind);
  // A publish writes outputs; an adopt writes only the state over files already there; a restore puts a backup back.
  if (!facts.keepsState && !facts.writesOnlyState && !facts.putsBackBackup && onlyCreates(counts)) return 'Publish';
  return facts.title;
}

/** "Publish: create 3 files (the state file among them)": the one sentence of a plan, for a button and a question. */
export function planCountsSentence(kind: string | undefined, counts: ChangeCounts): string {
  return `${countsTitle(kind, counts)}: ${countsWords(counts, 'plan', { kept: false })}`;
}
