// The journal is read without ever hanging or growing with its size: a FIFO in its place answers at
// once (also four at a time, which would hold all of libuv's threads), a corrupt journal gets its
// issues capped per code, a page holds at most its limit of records (the newest before its cursor),
// and a 16 MiB journal of garbage lines is answered in bounded time by a child whose peak RSS stays
// under a bound.

import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HISTORY_FORMAT, type HistoryRecord } from '../../shared/historySchema';
import { makeTempDir } from '../testing/fixtureTrees';
import { appendHistory, readHistory } from './journal';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('read-journal-test')));
afterEach(async () => remove());

const canFifo = process.platform !== 'win32';

function record(n: number, id = 'docs-eu'): HistoryRecord {
  return {
    format: HISTORY_FORMAT,
    at: `2026-12-03T17:${String(n % 60).padStart(2, '0')}:00Z`,
    user: `u${n}`,
    host: 'desk-1',
    transport: 'cli',
    destination: { id, path: `/srv/www/${id}` },
    action: 'replace',
    sourcePath: '/srv/bundles/b',
    counts: { delete: 0, write: 1 },
    result: { outcome: 'applied', changed: true, stateWritten: true },
    durationMs: 1,
  };
}

/** Settles within `ms`, or rejects naming what hung. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)),
  );
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe.skipIf(!canFifo)('a FIFO in the journal’s place', () => {
  it('is refused at once by history, naming it, and never opened', async () => {
    const fifo = path.join(dir, 'J');
    execFileSync('mkfifo', [fifo]);
    const read = await within(5000, 'readHistory of a FIFO', readHistory(fifo));
    expect(read).toMatchObject({ ok: false, error: { code: 'history_unreadable', message: expect.stringContaining('FIFO') } });
    const appended = await within(5000, 'appendHistory to a FIFO', appendHistory(fifo, record(1)));
    expect(appended).toMatchObject({ ok: false, error: { code: 'history_unwritable' } });
  });

  it('four at a time leave the file calls of the process working (no libuv thread is held)', async () => {
    const fifos = ['a', 'b', 'c', 'd'].map((name) => path.join(dir, name));
    for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
    const reads = await within(5000, 'four reads of FIFOs', Promise.all(fifos.map((fifo) => readHistory(fifo))));
    expect(reads.every((read) => !read.ok)).toBe(true);
    await fs.writeFile(path.join(dir, 'plain.txt'), 'still answers');
    expect(await within(5000, 'a file read after them', fs.readFile(path.join(dir, 'plain.txt'), 'utf8'))).toBe('still answers');
  });
});

describe('a corrupt journal', () => {
  it('gets at most 100 issues of each kind, then one "and N more like this" with the exact count', async () => {
    const file = path.join(dir, 'history.jsonl');
    const lines = [JSON.stringify(record(1)), ...Array.from({ length: 1000 }, (_, n) => `garbage ${n}`), '{"format":1}', ''];
    await fs.writeFile(file, lines.join('\n'));
    const read = await readHistory(file);
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.records).toHaveLength(1);
    expect(read.value.issues.filter((issue) => issue.code === 'not_json')).toHaveLength(100);
    expect(read.value.issues.filter((issue) => issue.code === 'not_a_record')).toHaveLength(1);
    const summary = read.value.issues.find((issue) => issue.code === 'more_like_this');
    expect(summary).toMatchObject({ line: 102, omitted: { code: 'not_json', count: 900 } });
    expect(summary?.message).toContain('and 900 more like this (not_json, from line 102 on)');
  });

  it('skips a line longer than any record without holding it', async () => {
    const file = path.join(dir, 'history.jsonl');
    await fs.writeFile(file, `${'x'.repeat(3 * 1024 * 1024)}\n${JSON.stringify(record(2))}\n`);
    const read = await readHistory(file);
    expect(read).toMatchObject({ ok: true, value: { records: [record(2)], issues: [{ line: 1, code: 'too_long' }] } });
  });
});

describe('a page of the journal', () => {
  it('holds the newest records before its cursor, oldest first, and the cursor of the next older page', async () => {
    const file = path.join(dir, 'history.jsonl');
    for (let n = 1; n <= 10; n++) await appendHistory(file, record(n, n % 2 === 0 ? 'docs-eu' : 'docs-us'));
    const users = (records: HistoryRecord[]) => records.map((entry) => entry.user);
    const first = await readHistory(file, { limit: 3 });
    if (!first.ok) throw new Error(first.error.message);
    expect(users(first.value.records)).toEqual(['u8', 'u9', 'u10']);
    const second = await readHistory(file, { limit: 3, before: first.value.nextCursor });
    expect(second.ok && users(second.value.records)).toEqual(['u5', 'u6', 'u7']);
    const last = await readHistory(file, { limit: 5, before: '0' });
    expect(last).toMatchObject({ ok: true, value: { records: [] } });
    const eu = await readHistory(file, { limit: 2, filter: (entry) => entry.destination.id === 'docs-eu' });
    expect(eu.ok && users(eu.value.records)).toEqual(['u8', 'u10']);
    const older = await readHistory(file, {
      limit: 10,
      before: eu.ok ? eu.value.nextCursor : undefined,
      filter: (entry) => entry.destination.id === 'docs-eu',
    });
    expect(older.ok && [users(older.value.records), older.value.nextCursor]).toEqual([['u2', 'u4', 'u6'], undefined]);
    expect(await readHistory(file, { before: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('reads records that cross the 1 MiB reads whole, a character split between two reads too', async () => {
    const file = path.join(dir, 'history.jsonl');
    // ~3 MiB of records whose users hold two-byte characters: some record, and some character, straddles each read's end.
    const records = Array.from({ length: 9000 }, (_, n) => ({ ...record(n), user: `é${'ü'.repeat(n % 97)}${n}` }));
    await fs.writeFile(file, records.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    const all = await readHistory(file);
    expect(all).toMatchObject({ ok: true, value: { issues: [] } });
    expect(all.ok && all.value.records).toEqual(records);
    // Paged back from the end, the cursors land on line starts: every record once, in order.
    const paged: HistoryRecord[] = [];
    for (let before: string | undefined, pages = 0; pages < 100; pages++) {
      const page = await readHistory(file, { limit: 2000, ...(before !== undefined ? { before } : {}) });
      if (!page.ok) throw new Error(page.error.message);
      expect(page.value.issues).toEqual([]);
      paged.unshift(...page.value.records);
      before = page.value.nextCursor;
      if (before === undefined) break;
    }
    expect(paged).toEqual(records);
  });
});

describe('a 16 MiB journal of garbage lines', () => {
  const here = path.dirname(fileURLToPath(import.meta.url));

  it('is answered in bounded time by a child whose peak RSS stays under 200 MiB', async () => {
    const child = path.join(dir, 'historyChild.mjs');
    await build({
      entryPoints: [path.join(here, '../testing/historyChild.ts')],
      outfile: child,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    });
    const file = path.join(dir, 'garbage.jsonl');
    // Three kinds: not an object, an object that does not parse, and JSON that is not a record.
    const line = `${'garbage '.padEnd(60, 'z')}\n{"noise": ${'z'.repeat(50)}}\n{"format":1,"noise":"${'z'.repeat(40)}"}\n`;
    const handle = await fs.open(file, 'w');
    const block = line.repeat(Math.ceil((1024 * 1024) / line.length));
    for (let n = 0; n < 16; n++) await handle.write(block);
    await handle.close();
    for (const mode of ['page', 'all']) {
      const run = spawnSync(process.execPath, [child, file, mode], { encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).toBe(0);
      const figures = JSON.parse(run.stdout) as { ok: boolean; ms: number; answerBytes: number; maxRssKiB: number; issues: number };
      console.log(
        `readJournal.test.ts: 16 MiB of garbage (${mode}): ${figures.ms} ms, peak RSS ${Math.round(figures.maxRssKiB / 1024)} MiB, answer ${figures.answerBytes} bytes`,
      );
      expect(figures.ok).toBe(true);
      expect(figures.issues).toBe(202);
      expect(figures.maxRssKiB).toBeLessThan(200 * 1024);
      expect(figures.answerBytes).toBeLessThan(64 * 1024);
      expect(figures.ms).toBeLessThan(30_000);
    }
  }, 120_000);
});
