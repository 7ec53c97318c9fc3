// The hook through which an apply keeps what it removes (issue 13 §3): declared here so that
// applyPlan knows only this interface, and implemented by backup/backupWriter.ts. The hook is called
// once, after staging and before the point of no return; anything it throws stops the apply before
// anything in the destination is deleted.

import type { FingerprintEntry, ReplacePlan } from '../../shared/plan';
import type { FsOps } from './fsOps';

export interface BackupPrepareInput {
  plan: ReplacePlan;
  /** The destination's real path, just proved to be the planned folder. */
  destRealPath: string;
  /**
   * What the apply will remove, as the fingerprint saw it: a forced replace's top-level entries, a
   * normal one's state file and recorded outputs (folders it empties are not kept: a restore makes
   * them again). The rest of the fingerprint is there for a copy, which keeps every entry below.
   */
  units: FingerprintEntry[];
  /** The apply's own mutations (counted, and killed or failed by the crash tests). */
  fs: FsOps;
}

export interface PreparedBackup {
  /** True: each unit is moved into the backup by rename; false: it is already copied, and the apply deletes it as before. */
  moves: boolean;
  /** Where a unit goes in the backup (absolute), when it moves. */
  targetOf(relative: string): string;
  /** The backup folder, named in messages. */
  folder: string;
}

export interface BackupStep {
  prepare(input: BackupPrepareInput): Promise<PreparedBackup>;
  /** Takes the backup back out: the apply failed before anything was removed from the destination. */
  discard(fs: FsOps): Promise<void>;
}

/** A backup the hook refuses to make, for a reason of its own (its folder inside the destination): the apply's error code. */
export class BackupRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The same FsOps, calling `onMutation` before each: the hook's mutations count as the apply's. */
export function countedFsOps(inner: FsOps, onMutation: () => void): FsOps {
  const count =
    <A extends unknown[]>(op: (...args: A) => Promise<void>) =>
    (...args: A) => {
      onMutation();
      return op(...args);
    };
  return {
    mkdir: count(inner.mkdir.bind(inner)),
    writeFile: count(inner.writeFile.bind(inner)),
    syncFiles: count(inner.syncFiles.bind(inner)),
    rename: count(inner.rename.bind(inner)),
    unlink: count(inner.unlink.bind(inner)),
    rmdir: count(inner.rmdir.bind(inner)),
    fsyncDir: count(inner.fsyncDir.bind(inner)),
    removeTree: count(inner.removeTree.bind(inner)),
    symlink: count(inner.symlink.bind(inner)),
  };
}
