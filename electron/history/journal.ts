// history/: may be imported by operations/, service/ and cli/. The history journal on disk: JSON
// lines, appended one record per apply and flushed before the apply is reported (so a crash right
// after never loses the record of what changed), read back with every bad line named by its number.
// A torn last line (a crash mid-write) is tolerated and reported, and the next record starts on a line
// of its own. Must never rewrite or truncate the journal, nor follow a link in its place.

import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import type { HistoryRecord } from '../../shared/historySchema';
import { problem, type Problem, type Result } from '../../shared/result';

/** Never through a link in the journal's place (Windows has no O_NOFOLLOW). */
const NO_FOLLOW = process.platform === 'win32' ? 0 : constants.O_NOFOLLOW;
// Read and write: the last byte is read to know whether a torn record needs a line break first.
// Non-blocking: a FIFO in the journal's place must never hold the call (it is refused after fstat).
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW | (constants.O_NONBLOCK ?? 0);

function errnoText(cause: unknown): string {
  const error = cause as NodeJS.ErrnoException;
  if (error.code === 'ELOOP') return 'it is a symbolic link (the journal is never written through one)';
  if (error.code === 'EACCES' || error.code === 'EPERM') return 'permission denied';
  if (error.code === 'ENOSPC') return 'the disk is full';
  return error.code ?? error.message;
}

/** Appends one record and flushes it to the disk; a failure is data, naming the file. */
export async function appendHistory(file: string, record: HistoryRecord): Promise<Result<void, Problem>> {
  try {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const handle = await fs.open(file, APPEND_FLAGS, 0o600);
    try {
      const stat = await handle.stat();
      if (!stat.isFile())
        return {
          ok: false,
          error: problem('history_unwritable', `${file}: the history record could not be written: it is not a regular file`),
        };
      const { size } = stat;
      let separator = '';
      if (size > 0) {
        // A torn last record (a crash mid-write) must not swallow this one.
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) separator = '\n';
      }
      await handle.write(`${separator}${JSON.stringify(record)}\n`);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    return { ok: true, value: undefined };
  } catch (cause) {
    return { ok: false, error: problem('history_unwritable', `${file}: the history record could not be written: ${errnoText(cause)}`) };
  }
}

export { readHistory, type HistoryRead, type HistoryReadOptions } from './readJournal';
