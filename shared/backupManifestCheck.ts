// The fast path of a backup manifest's check. A replace of 10,000 files keeps a manifest of 10,000
// entries and 10,000 writes, and every apply reads its own back twice and every kept one once to
// prune: zod took ~60–130 ms a manifest, plain predicates take a few. The records are judged by
// these predicates, the small shell around them by zod; anything they do not accept as it stands
// goes to zod whole, which stays the judge and names the field (property-tested to agree). No Node.

import { isCleanRelativePath } from './cleanPath';
import { backupManifestSchema, type BackupManifest } from './backupSchema';
import { isJsonObject } from './manifestSchema';

const ENTRY_KEYS = new Set(['path', 'type', 'size', 'mtimeNs', 'ino', 'sha256', 'mode', 'linkTarget', 'kept', 'pending']);
const WRITE_KEYS = new Set(['path', 'sha256', 'size']);
const ENTRY_TYPES = new Set(['file', 'directory', 'symlink', 'other']);

/** Only keys the schema knows: zod strips the others, so such a record is not returned as it stands. */
function hasOnlyKeys(value: Record<string, unknown>, known: ReadonlySet<string>): boolean {
  for (const key of Object.keys(value)) if (!known.has(key)) return false;
  return true;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isOptional = (value: unknown, check: (value: unknown) => boolean) => value === undefined || check(value);
const isString = (value: unknown): value is string => typeof value === 'string';

/** True only when backupEntrySchema accepts the value and gives it back unchanged. */
export function isPlainBackupEntry(value: unknown): boolean {
  if (!isJsonObject(value) || !hasOnlyKeys(value, ENTRY_KEYS)) return false;
  const { path, type, size, mtimeNs, ino, sha256, mode, linkTarget, kept, pending } = value;
  return (
    isString(path) &&
    isCleanRelativePath(path) &&
    isString(type) &&
    ENTRY_TYPES.has(type) &&
    isNumber(size) &&
    isString(mtimeNs) &&
    isString(ino) &&
    isOptional(sha256, isString) &&
    isOptional(mode, isNumber) &&
    isOptional(linkTarget, isString) &&
    typeof kept === 'boolean' &&
    isOptional(pending, (flag) => typeof flag === 'boolean')
  );
}

/** True only when the schema of a manifest's write accepts the value and gives it back unchanged. */
export function isPlainBackupWrite(value: unknown): boolean {
  if (!isJsonObject(value) || !hasOnlyKeys(value, WRITE_KEYS)) return false;
  const { path, sha256, size } = value;
  return isString(path) && isCleanRelativePath(path) && isString(sha256) && isNumber(size);
}

/**
 * The manifest as backupManifestSchema would give it, when its records pass the predicates and its
 * shell passes zod; undefined sends the caller to the schema (for the verdict and its words).
 */
export function plainBackupManifest(json: unknown): BackupManifest | undefined {
  if (!isJsonObject(json)) return undefined;
  const { entries, writes } = json;
  if (!Array.isArray(entries) || !Array.isArray(writes)) return undefined;
  if (!entries.every(isPlainBackupEntry) || !writes.every(isPlainBackupWrite)) return undefined;
  const shell = backupManifestSchema.safeParse({ ...json, entries: [], writes: [] });
  if (!shell.success) return undefined;
  return { ...shell.data, entries: entries as BackupManifest['entries'], writes: writes as BackupManifest['writes'] };
}
