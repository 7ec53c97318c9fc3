// File-level and field-level difference between two source manifests.
// `recorded` is what the destination last received, `current` is the source now. Linear time.

import { z } from 'zod';
import type { Manifest, ManifestFile } from './manifestSchema';
import { compareTimestamps } from './rfc3339';

const fieldChangeSchema = z.object({ recorded: z.string(), current: z.string() });
export type FieldChange = z.infer<typeof fieldChangeSchema>;

/** A file as the diff reports it (the manifest's own record, checked there). */
const diffFileSchema = z.looseObject({ path: z.string(), sha256: z.string(), size: z.number() });
const fileFactsSchema = z.object({ sha256: z.string(), size: z.number() });

export const fileChangeSchema = z.object({
  path: z.string(),
  recorded: fileFactsSchema,
  current: fileFactsSchema,
  /** Which of the two differ; both when both do. */
  changedBy: z.array(z.enum(['sha256', 'size'])),
});
export type FileChange = z.infer<typeof fileChangeSchema>;

export const manifestDiffSchema = z.object({
  fields: z.object({
    id: fieldChangeSchema.optional(),
    created: fieldChangeSchema.extend({ order: z.enum(['older', 'newer', 'same_instant']) }).optional(),
    digest: fieldChangeSchema.optional(),
  }),
  added: z.array(diffFileSchema),
  removed: z.array(diffFileSchema),
  changed: z.array(fileChangeSchema),
  unchangedCount: z.number(),
});
export type ManifestDiff = z.infer<typeof manifestDiffSchema>;

function indexByPath(files: readonly ManifestFile[]): Map<string, number> {
  const map = new Map<string, number>();
  for (let index = 0; index < files.length; index++) map.set((files[index] as ManifestFile).path, index);
  return map;
}

const comparePaths = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

export function diffManifests(recorded: Manifest, current: Manifest): ManifestDiff {
  const fields: ManifestDiff['fields'] = {};
  if (recorded.id !== current.id) fields.id = { recorded: recorded.id, current: current.id };
  if (recorded.digest !== current.digest) fields.digest = { recorded: recorded.digest, current: current.digest };
  if (recorded.created !== current.created) {
    const order = compareTimestamps(current.created, recorded.created);
    // Two spellings of one instant (offsets, trailing zeros) are reported, but as the same instant.
    fields.created = {
      recorded: recorded.created,
      current: current.created,
      order: order > 0 ? 'newer' : order < 0 ? 'older' : 'same_instant',
    };
  }

  // One map over the recorded files and a flag per recorded file: what is left unflagged was removed.
  const recordedIndex = indexByPath(recorded.files);
  const matched = new Uint8Array(recorded.files.length);
  const added: ManifestFile[] = [];
  const changed: FileChange[] = [];
  let unchangedCount = 0;
  for (const file of current.files) {
    const index = recordedIndex.get(file.path);
    if (index === undefined) {
      added.push(file);
      continue;
    }
    matched[index] = 1;
    const before = recorded.files[index] as ManifestFile;
    const changedBy: FileChange['changedBy'] = [];
    if (before.sha256 !== file.sha256) changedBy.push('sha256');
    if (before.size !== file.size) changedBy.push('size');
    if (changedBy.length === 0) unchangedCount++;
    else
      changed.push({
        path: file.path,
        recorded: { sha256: before.sha256, size: before.size },
        current: { sha256: file.sha256, size: file.size },
        changedBy,
      });
  }
  const removed = recorded.files.filter((_, index) => matched[index] === 0);
  return {
    fields,
    added: added.sort(comparePaths),
    removed: removed.sort(comparePaths),
    changed: changed.sort(comparePaths),
    unchangedCount,
  };
}

export function isEmptyDiff(diff: ManifestDiff): boolean {
  return (
    diff.fields.id === undefined &&
    diff.fields.digest === undefined &&
    (diff.fields.created === undefined || diff.fields.created.order === 'same_instant') &&
    diff.added.length === 0 &&
    diff.removed.length === 0 &&
    diff.changed.length === 0
  );
}
