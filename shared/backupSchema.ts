// Backups (issue 13 §3): what an apply moves out of a destination instead of deleting it, the manifest
// kept beside it (`backup.json`), the workspace file's `backups` setting, a backup as a list shows it,
// and the plan and result of restoring one. Pure zod schemas; types inferred. No Node.

import { z } from 'zod';
import { cleanPathField } from './fieldSchemas';
import { fingerprintSchema } from './plan';
import { problemSchema } from './problemSchema';

export const BACKUP_MANIFEST_NAME = 'backup.json';
/** The old entries, as they were, under this folder of a backup. */
export const BACKUP_FILES_DIR = 'files';
export const BACKUP_KIND = 'distributor-inspector-backup';
/** How many backups of one destination are kept when the workspace file does not say. */
export const DEFAULT_BACKUP_KEEP = 5;
/** The default backups folder's name, beside the workspace file (backup/backupLocation.ts). */
export const BACKUPS_FOLDER_NAME = '.inspector-backups';

/** `rename`: moved (same file system, no copy); `copy`: copied and verified (sha256), then deleted by the apply. */
export const backupMethodSchema = z.enum(['rename', 'copy']);
export type BackupMethod = z.infer<typeof backupMethodSchema>;

/** One thing kept: a file, a link, a folder (with all below it when it was moved whole) or a special file. */
export const backupEntrySchema = z.object({
  /** Relative to the destination, "/" separated: a clean relative path (CONTRACT.md), never one that climbs out. */
  path: cleanPathField,
  type: z.enum(['file', 'directory', 'symlink', 'other']),
  /** Bytes: a file's size; for a folder moved whole, the files below it. */
  size: z.number(),
  /** As lstat saw it before the apply: a moved entry keeps its inode and mtime, so a restore can tell it is untouched. */
  mtimeNs: z.string(),
  ino: z.string(),
  /** Copied files: the sha256 the copy was verified against. */
  sha256: z.string().optional(),
  /** Copied folders: their permission bits, given back when a restore makes the folder again. */
  mode: z.number().optional(),
  /** Copied links: the target, read with readlink, never followed. */
  linkTarget: z.string().optional(),
  /**
   * Whether the backup holds it now. False for what cannot be copied (a FIFO, a device on another
   * file system): listed, not kept; and for an entry still `pending`.
   */
  kept: z.boolean(),
  /**
   * To be moved here by the apply (by rename), after this manifest was written: here, or (the apply
   * stopped or was killed first) still in the destination. Settled to `kept` when the apply ends, so
   * the manifest never claims an entry the backup does not hold.
   */
  pending: z.boolean().optional(),
});
export type BackupEntry = z.infer<typeof backupEntrySchema>;

export const backupManifestSchema = z.looseObject({
  kind: z.literal(BACKUP_KIND),
  version: z.literal(1),
  /** The backup's folder name (its UTC time): unique among the destination's backups. */
  id: z.string(),
  /** The apply that made it: replace, force (and the recovery actions). */
  action: z.string(),
  createdAt: z.string(),
  destination: z.object({ id: z.string().optional(), path: z.string(), realPath: z.string() }),
  method: backupMethodSchema,
  /** The apply's staging folder in the destination: a restore removes it when an interrupted apply left it. */
  stagingName: z.string(),
  /** sha256 of the state file kept (null: there was none). */
  stateSha256: z.string().nullable(),
  /** A repair or a discard of staging leaves the state where it is: its sha256, which a restore expects to find there and leaves in place. */
  stateLeft: z.string().optional(),
  /**
   * The folders holding the apply's writes that stood in the destination before it and that it left
   * in place (an empty folder a repair wrote an output back into, say): a restore never removes them,
   * only the folders the apply made. Absent in backups made before it was recorded: a restore then
   * removes every folder the apply's outputs leave empty.
   */
  foldersLeft: z.array(cleanPathField).optional(),
  /** Renamed: the units moved (a forced replace's top-level entries, a normal one's files); copied: every entry. */
  entries: z.array(backupEntrySchema),
  /** What the apply planned to write: how a restore recognises the outputs it must remove. */
  writes: z.array(z.object({ path: cleanPathField, sha256: z.string(), size: z.number() })),
  /** Written once the apply ended; absent when it was killed. */
  after: z
    .object({
      at: z.string(),
      outcome: z.enum(['applied', 'refused', 'failed']),
      /** The state file the apply left (the one a restore expects to find). */
      stateSha256: z.string().optional(),
    })
    .optional(),
  /** Set by the restore that put it back. */
  restoredAt: z.string().optional(),
});
export type BackupManifest = z.infer<typeof backupManifestSchema>;

/** Where a workspace keeps backups, resolved: absolute folder and retention, or off. */
export const backupSettingsSchema = z.discriminatedUnion('enabled', [
  z.object({ enabled: z.literal(false) }),
  z.object({ enabled: z.literal(true), folder: z.string(), keep: z.number() }),
]);
export type BackupSettings = z.infer<typeof backupSettingsSchema>;

/** A backup as a list shows it. */
export const backupSummarySchema = z.object({
  id: z.string(),
  /** The folder holding it (absolute). */
  folder: z.string(),
  destination: z.object({ id: z.string().optional(), path: z.string() }),
  action: z.string(),
  createdAt: z.string(),
  method: backupMethodSchema,
  /** Bytes kept, and how many entries (files, links, folders). */
  sizeBytes: z.number(),
  entryCount: z.number(),
  /** The apply's outcome; absent when it was killed mid-way. */
  outcome: z.enum(['applied', 'refused', 'failed']).optional(),
  /** When it was restored (a restore puts its entries back into the destination). */
  restoredAt: z.string().optional(),
  /** Set when its manifest cannot be read: listed so that prune and an operator see it, never restored. */
  problem: z.string().optional(),
});
export type BackupSummary = z.infer<typeof backupSummarySchema>;

export const backupListSchema = z.object({
  settings: backupSettingsSchema,
  backups: z.array(backupSummarySchema),
});
export type BackupList = z.infer<typeof backupListSchema>;

/** Where the backup of a planned apply will go: shown in the forced replace's dialog. */
export const backupTargetInfoSchema = z.discriminatedUnion('enabled', [
  z.object({ enabled: z.literal(false) }),
  z.object({
    enabled: z.literal(true),
    /** The destination's folder of backups (each apply adds a folder named for its UTC time). */
    folder: z.string(),
    /** Planned: rename when the backups are on the destination's file system, else copy. */
    method: backupMethodSchema,
  }),
]);
export type BackupTargetInfo = z.infer<typeof backupTargetInfoSchema>;

export const restorePlanSchema = z.object({
  planVersion: z.literal(1),
  backupId: z.string(),
  /** The backup folder (absolute). */
  backupFolder: z.string(),
  destinationPath: z.string(),
  destinationRealPath: z.string(),
  method: backupMethodSchema,
  /** What the apply wrote and is there now: removed first (the state file first of all). */
  removes: z.array(z.object({ path: cleanPathField, type: z.enum(['file', 'directory', 'symlink', 'other']), size: z.number() })),
  /** Staging folders an interrupted apply (or restore) left: removed. */
  removeStaging: z.array(cleanPathField),
  /** Backup entries put back, the old state last. */
  puts: z.array(backupEntrySchema),
  /** Entries already back in place (a restore killed mid-way, or an apply killed before it moved them). */
  alreadyInPlace: z.array(z.string()),
  /** Backup entries that cannot come back (not kept: a FIFO, say). */
  notKept: z.array(z.string()),
  /** The destination as planned: apply refuses when it changed since. */
  fingerprint: fingerprintSchema,
  plannedAt: z.string(),
  summary: z.object({ removeCount: z.number(), putCount: z.number(), putBytes: z.number() }),
});
export type RestorePlan = z.infer<typeof restorePlanSchema>;

export const restoreResultSchema = z.object({
  ok: z.boolean(),
  backupId: z.string(),
  destinationPath: z.string(),
  error: problemSchema.optional(),
  changed: z.boolean(),
  /** Whether the old state file is back in place. */
  stateRestored: z.boolean(),
  removed: z.array(z.string()),
  restored: z.array(z.string()),
  mutations: z.number(),
  durationMs: z.number(),
});
export type RestoreResult = z.infer<typeof restoreResultSchema>;
