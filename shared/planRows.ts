// A plan as rows that read like `terraform plan`: one row per path, create / update / delete /
// unchanged, the extra files a plan keeps listed as `keep`, and totals per kind. Pure, for the CLI's
// plan text, its --json and the app's confirmation alike. A path the plan deletes and writes again is
// ONE row (update, or unchanged when its bytes on disk were proven to be the bytes written), never a
// delete and a write. Never hides a row: every deleted, written and kept path is in the list.

import type { ChangedOnDisk, ReplacePlan } from './plan';
import { STATE_FILE_NAME } from './stateSchema';

export const PLAN_ROW_KINDS = ['create', 'update', 'delete', 'unchanged', 'keep'] as const;
export type PlanRowKind = (typeof PLAN_ROW_KINDS)[number];

export interface PlanRow {
  kind: PlanRowKind;
  path: string;
  /** What stands or will stand at the path; `state` for `.distributor.json`. */
  type: 'file' | 'directory' | 'symlink' | 'other' | 'state';
  /** Bytes now (delete, keep) or after the apply (create, update, unchanged); absent when not known. */
  size?: number;
  /** update and delete: the bytes there now, when they differ in size from what is written. */
  oldSize?: number;
  /** A recorded output edited on disk since it was published: the edits go (update, delete). */
  changed?: ChangedOnDisk;
  /** How a written output is made: copied from the source, or generated from a source file. */
  write?: { kind: 'source' | 'generated'; sourcePath: string };
  /** keep: why it stays (an extra file; a drifted output a repair cannot prove). */
  note?: string;
}

/** The note of a row whose old bytes a plan applied at once leaves to the apply to hash (`hashAtApply`). */
export const HASHED_AT_APPLY = 'its bytes on disk are checked as it is applied';

export type PlanRowTotals = Record<PlanRowKind, number>;

export interface PlanRowsView {
  rows: PlanRow[];
  totals: PlanRowTotals;
}

/** Code-point order: the same in every locale, so the CLI, the app and the exported plan list paths alike. */
const byPath = (a: PlanRow, b: PlanRow) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

function foldersOf(relative: string): string[] {
  const segments = relative.split('/');
  return segments.slice(1).map((_, index) => segments.slice(0, index + 1).join('/'));
}

export function emptyTotals(): PlanRowTotals {
  return { create: 0, update: 0, delete: 0, unchanged: 0, keep: 0 };
}

export function planRows(plan: ReplacePlan): PlanRowsView {
  const rows = new Map<string, PlanRow>();
  const deleted = new Map(plan.deletes.map((entry) => [entry.path, entry]));
  for (const write of plan.writes) {
    const old = deleted.get(write.path);
    const row: PlanRow = {
      kind: 'create',
      path: write.path,
      type: 'file',
      size: write.size,
      write: { kind: write.kind, sourcePath: write.source_path },
    };
    if (old) {
      const same = old.type === 'file' && old.changed === undefined && old.sha256 === write.sha256 && old.size === write.size;
      row.kind = same ? 'unchanged' : 'update';
      if (old.size !== write.size || old.type !== 'file') row.oldSize = old.size;
      if (old.changed) row.changed = old.changed;
      if (old.hashAtApply !== undefined) row.note = HASHED_AT_APPLY;
    }
    rows.set(write.path, row);
  }
  // A forced replace removes every folder, also those the new outputs need again: made again, not gone.
  const neededFolders = new Set(plan.writes.flatMap((write) => foldersOf(write.path)));
  for (const entry of plan.deletes) {
    if (rows.has(entry.path)) continue;
    const isState = entry.path === STATE_FILE_NAME;
    const row: PlanRow = { kind: 'delete', path: entry.path, type: isState ? 'state' : entry.type, size: entry.size };
    if (entry.changed) row.changed = entry.changed;
    if (entry.hashAtApply !== undefined) row.note = HASHED_AT_APPLY;
    if (isState && plan.newState) row.kind = 'update';
    if (entry.type === 'directory' && neededFolders.has(entry.path)) {
      row.kind = 'update';
      row.note = 'folder made again for the outputs in it';
    }
    rows.set(entry.path, row);
  }
  if (plan.newState && !rows.has(STATE_FILE_NAME)) rows.set(STATE_FILE_NAME, { kind: 'create', path: STATE_FILE_NAME, type: 'state' });
  // An output the new state records and the plan does not write is recorded as it stands (an adopt).
  for (const output of plan.newState?.outputs ?? [])
    if (!rows.has(output.path))
      rows.set(output.path, {
        kind: 'unchanged',
        path: output.path,
        type: 'file',
        size: output.size,
        write: { kind: output.kind, sourcePath: output.source_path },
        note: 'already in place',
      });
  const kept = (path: string, note: string) => {
    if (!rows.has(path)) rows.set(path, { kind: 'keep', path, type: 'file', note });
  };
  for (const path of plan.extras ?? plan.repair?.extras ?? []) kept(path, 'extra');
  for (const refusal of plan.repair?.refused ?? []) kept(refusal.path, `cannot be repaired: ${refusal.message}`);
  const list = [...rows.values()].sort(byPath);
  const totals = emptyTotals();
  for (const row of list) totals[row.kind] += 1;
  return { rows: list, totals };
}

/** The sign of each kind, as terraform prints it. */
export const PLAN_ROW_SIGNS: Record<PlanRowKind, string> = { create: '+', update: '~', delete: '-', unchanged: '=', keep: '·' };

/** "Plan: 2 to create, 1 to update, 3 to delete, 4 unchanged, 1 kept (extra or refused)." */
export function planTotalsText(totals: PlanRowTotals): string {
  return `Plan: ${totals.create} to create, ${totals.update} to update, ${totals.delete} to delete, ${totals.unchanged} unchanged, ${totals.keep} kept.`;
}

/** The words shown beside a kind: "create", "update", …, "keep". */
export function planRowWord(row: Pick<PlanRow, 'kind' | 'note'>): string {
  return row.kind === 'keep' && row.note === 'extra' ? 'keep (extra)' : row.kind;
}

/** A plan as exported or printed with --json: the engine's plan as it is, with its rows and totals beside it. */
export function planDocument(plan: ReplacePlan): { plan: ReplacePlan } & PlanRowsView {
  return { plan, ...planRows(plan) };
}
