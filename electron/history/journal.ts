// history/: may be imported by operations/, service/ and cli/. The history journal on disk: JSON
// lines, appended one record per apply and flushed before the apply is reported (so a crash right
// after never loses the record of what changed), read back with every bad line named by its number.
// A torn last line (a crash mid-write) is tolerated and reported, and the next record starts on a line
// of its own. Must never rewrite or truncate the journal, nor follow a link in its place.

import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { historyRecordSchema, type HistoryLineIssue, type HistoryRecord } from '../../shared/historySchema';
import { problem, type Problem, type Result } from '../../shared/result';

/** A journal past this is read from its end: the newest records are the ones asked for. */
const MAX_READ_BYTES = 64 * 1024 * 1024;

// Read and write: the last byte is read to know whether a torn record needs a line break first.
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (process.platform === 'win32' ? 0 : constants.O_NOFOLLOW);

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
      const { size } = await handle.stat();
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

export interface HistoryRead {
  file: string;
  /** Oldest first. */
  records: HistoryRecord[];
  issues: HistoryLineIssue[];
  /** The journal was larger than the read cap: only its newest part was read. */
  truncated: boolean;
}

/** Every record of the journal (none when it does not exist yet), and each line it could not read. */
export async function readHistory(file: string): Promise<Result<HistoryRead, Problem>> {
  let text: string;
  let truncated: boolean;
  try {
    const handle = await fs.open(file, constants.O_RDONLY | (process.platform === 'win32' ? 0 : constants.O_NOFOLLOW));
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return { ok: false, error: problem('history_unreadable', `${file}: not a regular file`) };
      const length = Math.min(stat.size, MAX_READ_BYTES);
      truncated = stat.size > length;
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, stat.size - length);
      text = buffer.toString('utf8');
      // Cut at a line start: the first line of a read from the middle is a fragment.
      if (truncated) text = text.slice(text.indexOf('\n') + 1);
    } finally {
      await handle.close();
    }
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, value: { file, records: [], issues: [], truncated: false } };
    return { ok: false, error: problem('history_unreadable', `${file}: ${errnoText(cause)}`) };
  }
  return { ok: true, value: { file, truncated, ...parseHistory(text) } };
}

/** The journal's text as records and line issues. Pure. */
export function parseHistory(text: string): { records: HistoryRecord[]; issues: HistoryLineIssue[] } {
  const records: HistoryRecord[] = [];
  const issues: HistoryLineIssue[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const last = index === lines.length - 1;
    if (line.trim() === '') return;
    // The last piece has no line break after it: the write of that record never finished.
    if (last) {
      issues.push({
        line: index + 1,
        torn: true,
        message: 'the last record was cut off mid-write (a crash or a full disk); it is skipped',
      });
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (cause) {
      issues.push({ line: index + 1, torn: false, message: `not JSON: ${(cause as Error).message}` });
      return;
    }
    const parsed = historyRecordSchema.safeParse(json);
    if (parsed.success) records.push(parsed.data);
    else {
      const first = parsed.error.issues[0]!;
      issues.push({
        line: index + 1,
        torn: false,
        message: `not a history record: ${first.path.join('.') || '(record)'}: ${first.message}`,
      });
    }
  });
  return { records, issues };
}
