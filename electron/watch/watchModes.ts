// The watcher's words and shapes: what it is asked to watch, what it reports, how each thing is
// looked at (a native watch, or polling and why) and the words for why, as the status bar shows
// them: about the folder, in an operator's terms. Pure.

import type { watch as fsWatch } from 'node:fs';
import type { LiveRefreshStatus } from '../../shared/liveRefresh';

export interface WatchedDestination {
  id: string;
  root: string;
}

/** What re-reads the list: a workspace file (watched through its folder, so a save-by-rename is seen), or a folder of destinations. */
export interface WorkspaceWatchTarget {
  path: string;
  kind: 'file' | 'folder';
}

export type WatchChange =
  /**
   * `at`: when the first event of the burst was seen (ISO 8601); `lastEventAt`: its last. An event is
   * seen after the write it reports, so a read begun after `lastEventAt` saw every change of the burst.
   */
  { kind: 'destination'; id: string; at: string; lastEventAt: string } | { kind: 'workspace'; at: string };

export interface DestinationWatcherOptions {
  onChange: (change: WatchChange) => void;
  /** Each time a destination's mode changes (watched, polled and why); called after a batch of changes, not per destination. */
  onStatus?: (status: LiveRefreshStatus) => void;
  /** Quiet time after the last event before a burst is reported. */
  debounceMs?: number;
  /** A burst that never goes quiet is still reported this long after its first event. */
  maxWaitMs?: number;
  pollIntervalMs?: number;
  /** Poll everything (tests, or an operator who knows the mounts lie): the reason said in the status. */
  forcePolling?: string;
  /** Stands in for fs.watch (tests: a watch that fails with ENOSPC). */
  watch?: typeof fsWatch;
}

export type Mode = { mode: 'watching' } | { mode: 'polling'; reason: string };

/** Why a destination is checked by polling: words for the status bar, about the folder, not the API. */
export const POLL_REASONS = {
  limit: 'the system’s limit on watched folders is reached',
  missing: 'the folder is missing',
  permission: 'permission to watch is denied',
  openFiles: 'too many open files',
} as const;

export function errnoCode(cause: unknown): string | undefined {
  return (cause as NodeJS.ErrnoException | undefined)?.code;
}

export function reasonOf(cause: unknown): string {
  const code = errnoCode(cause);
  if (code === 'ENOSPC') return POLL_REASONS.limit;
  if (code === 'ENOENT' || code === 'ENOTDIR') return POLL_REASONS.missing;
  if (code === 'EPERM' || code === 'EACCES') return POLL_REASONS.permission;
  if (code === 'EMFILE' || code === 'ENFILE') return POLL_REASONS.openFiles;
  return `fs.watch failed (${code ?? (cause as Error)?.message ?? String(cause)})`;
}
