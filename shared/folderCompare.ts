// A folder compare: a destination folder against what a source bundle would publish there, path by
// path (matches, differs, missing, extra), as Beyond Compare shows two folders. And the one rule of
// adopting: an unmanaged folder whose every expected output already matches byte for byte can be
// taken over by writing only its state file. Pure: the engine fills the compare
// (electron/replace/compareFolder.ts); the CLI and the renderer show it and its words as given.

import { z } from 'zod';
import { destinationStatusSchema } from './inspection';
import { fileKindSchema } from './verifyReport';

export const folderEntryStatusSchema = z.enum(['matches', 'differs', 'missing', 'extra']);
export type FolderEntryStatus = z.infer<typeof folderEntryStatusSchema>;

export const folderEntrySchema = z.object({
  /** Relative to the destination, "/" separated; an empty folder ends in "/". */
  path: z.string(),
  status: folderEntryStatusSchema,
  /** What stands there (never followed: a link is a `symlink`); absent when missing. */
  kind: fileKindSchema.optional(),
  /** What a publish of the source writes there (absent for an extra entry). */
  expected: z.object({ sha256: z.string(), size: z.number(), source_path: z.string(), generated: z.boolean() }).optional(),
  /** As found, when it differs: the size, its sha256 when it was hashed, a link's target (read, never followed). */
  actual: z.object({ size: z.number().optional(), sha256: z.string().optional(), linkTarget: z.string().optional() }).optional(),
  /** Why a `differs` entry differs. */
  reason: z.enum(['size_mismatch', 'hash_mismatch', 'not_a_file', 'unreadable']).optional(),
});
export type FolderEntry = z.infer<typeof folderEntrySchema>;

export const folderCountsSchema = z.object({
  matches: z.number(),
  differs: z.number(),
  missing: z.number(),
  extra: z.number(),
});
export type FolderCounts = z.infer<typeof folderCountsSchema>;

export const adoptBlockerSchema = z.object({
  code: z.enum(['has_state', 'invalid_state', 'empty', 'outputs_differ', 'outputs_missing']),
  message: z.string(),
  /** The files that stop it, when files do (the first ones). */
  paths: z.array(z.string()).optional(),
});
export type AdoptBlocker = z.infer<typeof adoptBlockerSchema>;

export const folderCompareSchema = z.object({
  destinationPath: z.string(),
  /** The folder as inspect sees it (the contract's four statuses). */
  destinationStatus: destinationStatusSchema,
  source: z.object({ path: z.string(), id: z.string(), digest: z.string(), created: z.string() }),
  /** Expected outputs first (in the source's order), then extra entries (sorted). */
  entries: z.array(folderEntrySchema),
  counts: folderCountsSchema,
  /** Whether `adopt` may take this folder over; when not, every reason. */
  adoptable: z.boolean(),
  blockers: z.array(adoptBlockerSchema),
});
export type FolderCompare = z.infer<typeof folderCompareSchema>;

export function folderCounts(entries: readonly Pick<FolderEntry, 'status'>[]): FolderCounts {
  const counts: FolderCounts = { matches: 0, differs: 0, missing: 0, extra: 0 };
  for (const entry of entries) counts[entry.status]++;
  return counts;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function listed(paths: readonly string[], limit = 5): string {
  const more = paths.length > limit ? ` and ${paths.length - limit} more` : '';
  return `${paths.slice(0, limit).join(', ')}${more}`;
}

/**
 * The one rule of adopting: the folder holds no state file (valid or not) and something to adopt,
 * and every output the source publishes stands there byte for byte. Extra entries never stop it.
 */
export function adoptBlockers(compare: Pick<FolderCompare, 'destinationStatus' | 'entries'>): AdoptBlocker[] {
  const blockers: AdoptBlocker[] = [];
  if (compare.destinationStatus === 'managed')
    blockers.push({ code: 'has_state', message: 'the folder is already managed: its state file is valid (a replace publishes over it)' });
  if (compare.destinationStatus === 'invalid')
    blockers.push({ code: 'invalid_state', message: 'the folder has a state file that is not valid; only a forced replace clears it' });
  if (compare.destinationStatus === 'empty') blockers.push({ code: 'empty', message: 'the folder is empty: a publish fills it' });
  const differs = compare.entries.filter((entry) => entry.status === 'differs').map((entry) => entry.path);
  const missing = compare.entries.filter((entry) => entry.status === 'missing').map((entry) => entry.path);
  if (differs.length > 0)
    blockers.push({
      code: 'outputs_differ',
      message: `${plural(differs.length, 'file')} the source publishes ${differs.length === 1 ? 'differs' : 'differ'} on disk (${listed(differs)})`,
      paths: differs.slice(0, 20),
    });
  if (missing.length > 0)
    blockers.push({
      code: 'outputs_missing',
      message: `${plural(missing.length, 'file')} the source publishes ${missing.length === 1 ? 'is' : 'are'} missing (${listed(missing)})`,
      paths: missing.slice(0, 20),
    });
  return blockers;
}

/** "3 match · 1 differs · 0 missing · 2 extra": the counts in one line, for the CLI and the table's header. */
export function folderCountsText(counts: FolderCounts): string {
  return `${counts.matches} match${counts.matches === 1 ? 'es' : ''} · ${counts.differs} differ${counts.differs === 1 ? 's' : ''} · ${counts.missing} missing · ${counts.extra} extra`;
}

/** What an adopt writes, in one sentence: the state file, naming how many outputs it records and that extras stay. */
export function adoptWritesText(outputCount: number, extraCount: number): string {
  const stays = extraCount === 1 ? 'stays as it is' : 'stay as they are';
  const extras = extraCount > 0 ? `; ${plural(extraCount, 'extra entry', 'extra entries')} ${stays}` : '';
  return `Write only .distributor.json, recording ${plural(outputCount, 'file')} already in place; no other byte is written, moved or deleted${extras}.`;
}
