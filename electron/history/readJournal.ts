// Reads the history journal back, streamed: the file is opened only when it is a regular file (lstat
// first, non-blocking and no-follow: engine/regularFile.ts, so a FIFO in its place answers at once
// instead of holding one of libuv's four threads), read in chunks, one line at a time, and never held
// whole. Memory stays bounded for a journal of any size: a page keeps at most `limit` records (the
// newest before its cursor), a line longer than any record is skipped unread, and the issues are
// capped per code as inspect caps them ("and N more like this"). At most the newest 64 MiB before
// the cursor are read, so the time is bounded too. Read-only.

import { historyRecordSchema, type HistoryLineIssue, type HistoryRecord } from '../../shared/historySchema';
import { groupDigits, ISSUES_KEPT_PER_CODE, MORE_LIKE_THIS } from '../../shared/issueCap';
import { problem, type Problem, type Result } from '../../shared/result';
import { openRegularFile } from '../engine/regularFile';

/** A journal past this (before the cursor) is read from its end: the newest records are the ones asked for. */
export const MAX_READ_BYTES = 64 * 1024 * 1024;
/** No record is near this long; a longer line is garbage, skipped without being held. */
const MAX_LINE_BYTES = 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;

export interface HistoryRead {
  file: string;
  /** Oldest first: the newest `limit` before the cursor (all of them without a limit). */
  records: HistoryRecord[];
  issues: HistoryLineIssue[];
  /** The journal was larger than the read cap: only its newest part was read. */
  truncated: boolean;
  /** Where the next (older) page starts: pass it back as `before`; absent when there is nothing older. */
  nextCursor?: string;
}

export interface HistoryReadOptions {
  /** Only records this keeps (one destination's). */
  filter?: (record: HistoryRecord) => boolean;
  /** At most this many records: the newest before `before`. */
  limit?: number;
  /** A cursor from an earlier page (a byte offset where a line starts): only records before it. */
  before?: string;
}

/** Issues of a code past the cap are counted, not kept; each code gets one summary. */
class LineIssues {
  private readonly kept: HistoryLineIssue[] = [];
  private readonly counts = new Map<string, { kept: number; omitted: number; firstOmitted: number }>();

  add(code: string, line: number, torn: boolean, message: () => string): void {
    const count = this.counts.get(code) ?? { kept: 0, omitted: 0, firstOmitted: 0 };
    this.counts.set(code, count);
    if (count.kept < ISSUES_KEPT_PER_CODE) {
      count.kept++;
      this.kept.push({ line, torn, code, message: message() });
    } else if (count.omitted++ === 0) count.firstOmitted = line;
  }

  all(): HistoryLineIssue[] {
    const summaries = [...this.counts]
      .filter(([, count]) => count.omitted > 0)
      .map(([code, count]) => ({
        line: count.firstOmitted,
        torn: false,
        code: MORE_LIKE_THIS,
        omitted: { code, count: count.omitted },
        message: `and ${groupDigits(count.omitted)} more like this (${code}, from line ${groupDigits(count.firstOmitted)} on): only the first ${ISSUES_KEPT_PER_CODE} issues of each kind are listed`,
      }));
    return [...this.kept, ...summaries];
  }
}

function cursorOf(text: string | undefined, size: number): number | undefined {
  if (text === undefined) return size;
  return /^[0-9]{1,15}$/.test(text) && Number(text) <= size ? Number(text) : undefined;
}

/** The records of the journal (none when it does not exist yet), and each line it could not read. */
export async function readHistory(file: string, options: HistoryReadOptions = {}): Promise<Result<HistoryRead, Problem>> {
  let opened: Awaited<ReturnType<typeof openRegularFile>>;
  try {
    opened = await openRegularFile(file);
  } catch (cause) {
    return { ok: false, error: problem('history_unreadable', `${file}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`) };
  }
  if (opened.kind === 'missing') return { ok: true, value: { file, records: [], issues: [], truncated: false } };
  if (opened.kind !== 'open')
    return {
      ok: false,
      error: problem(
        'history_unreadable',
        `${file}: ${opened.kind === 'not_a_file' ? `it is ${opened.what}, not a journal (never read through a link, never opened unless a regular file)` : opened.kind}`,
      ),
    };
  const { handle } = opened;
  try {
    const end = cursorOf(options.before, opened.sizeBytes);
    if (end === undefined) return { ok: false, error: problem('invalid_input', `"${options.before}" is not a cursor of ${file}`) };
    const start = Math.max(0, end - MAX_READ_BYTES);
    const issues = new LineIssues();
    const page: { record: HistoryRecord; offset: number }[] = [];
    let dropped = false;
    let lineNumber = 0;
    let line: Buffer[] = [];
    let lineBytes = 0;
    let lineStart = start;
    let tooLong = false;
    // Read from the middle: the first line is a fragment, and the next page starts where it ends.
    let skipping = start > 0;
    let firstWhole = start;

    const chunk = Buffer.alloc(CHUNK_BYTES);
    // A line within one chunk (nearly every line) is decoded straight from it, `whole`: `from` to
    // `stop`; only a line across chunks is copied, piece by piece, and joined.
    const finishLine = (torn: boolean, whole?: { from: number; stop: number }) => {
      const at = lineStart;
      const pieces = line;
      const wasTooLong = tooLong;
      line = [];
      lineBytes = 0;
      tooLong = false;
      if (skipping) {
        skipping = false;
        return;
      }
      lineNumber++;
      if (wasTooLong) {
        issues.add('too_long', lineNumber, torn, () => `longer than ${MAX_LINE_BYTES} bytes: not a history record; skipped`);
        return;
      }
      const text = (whole ? chunk.toString('utf8', whole.from, whole.stop) : Buffer.concat(pieces).toString('utf8')).trim();
      if (text === '') return;
      if (torn) {
        issues.add('torn', lineNumber, true, () => 'the last record was cut off mid-write (a crash or a full disk); it is skipped');
        return;
      }
      // A record is one JSON object: anything else is told without the cost of a parse error.
      if (text[0] !== '{' || text[text.length - 1] !== '}') {
        issues.add('not_json', lineNumber, false, () => `not JSON: not one object from "{" to "}" (${JSON.stringify(text.slice(0, 40))}…)`);
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (cause) {
        issues.add('not_json', lineNumber, false, () => `not JSON: ${(cause as Error).message}`);
        return;
      }
      const parsed = historyRecordSchema.safeParse(json);
      if (!parsed.success) {
        const first = parsed.error.issues[0]!;
        issues.add(
          'not_a_record',
          lineNumber,
          false,
          () => `not a history record: ${first.path.join('.') || '(record)'}: ${first.message}`,
        );
        return;
      }
      if (options.filter && !options.filter(parsed.data)) return;
      page.push({ record: parsed.data, offset: at });
      if (options.limit !== undefined && page.length > options.limit) {
        page.shift();
        dropped = true;
      }
    };

    for (let position = start; position < end;) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK_BYTES, end - position), position);
      if (bytesRead === 0) break;
      let from = 0;
      // A bad line's message is kept, never its stack: capturing one for each SyntaxError and
      // ZodError cost a fifth of reading a journal of garbage. Restored before the next await.
      const stackTraceLimit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        while (from < bytesRead) {
          const newline = chunk.indexOf(0x0a, from);
          const stop = newline === -1 || newline >= bytesRead ? bytesRead : newline;
          const inChunk = stop < bytesRead && lineBytes === 0 && !tooLong;
          if (!tooLong && !skipping && !inChunk) {
            if (lineBytes + (stop - from) > MAX_LINE_BYTES) {
              tooLong = true;
              line = [];
              lineBytes = 0;
            } else {
              line.push(Buffer.from(chunk.subarray(from, stop)));
              lineBytes += stop - from;
            }
          }
          if (stop === bytesRead) break;
          const wasSkipping = skipping;
          finishLine(false, inChunk ? { from, stop } : undefined);
          lineStart = position + stop + 1;
          if (wasSkipping) firstWhole = lineStart;
          from = stop + 1;
        }
      } finally {
        Error.stackTraceLimit = stackTraceLimit;
      }
      position += bytesRead;
    }
    // A last piece with no line break: the write of that record never finished (only at the real end).
    if (lineBytes > 0 || tooLong) finishLine(end === opened.sizeBytes);
    const nextCursor = dropped ? page[0]!.offset : start > 0 ? firstWhole : undefined;
    return {
      ok: true,
      value: {
        file,
        records: page.map((entry) => entry.record),
        issues: issues.all(),
        truncated: start > 0,
        ...(nextCursor !== undefined && nextCursor > 0 ? { nextCursor: String(nextCursor) } : {}),
      },
    };
  } catch (cause) {
    return { ok: false, error: problem('history_unreadable', `${file}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`) };
  } finally {
    await handle.close();
  }
}
