// How a watched thing is looked at (a native watch, or polling and why) and the words for why, as the
// status bar shows them: about the folder, in an operator's terms. Pure.

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
