import fc from 'fast-check';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HISTORY_FORMAT, type HistoryRecord } from '../../shared/historySchema';
import { makeTempDir } from '../testing/fixtureTrees';
import { appendHistory, readHistory } from './journal';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('journal-test')));
afterEach(async () => remove());

function record(overrides: Partial<HistoryRecord> = {}): HistoryRecord {
  return {
    format: HISTORY_FORMAT,
    at: '2026-12-03T17:30:00Z',
    user: 'ops',
    host: 'desk-1',
    transport: 'cli',
    destination: { id: 'docs-eu', path: '/srv/www/docs-eu' },
    action: 'replace',
    sourcePath: '/srv/bundles/handbook-2026-06',
    counts: { delete: 3, write: 4, keep: 0 },
    sourceBefore: { id: 'handbook-2026-05', digest: `sha256:${'a'.repeat(64)}` },
    sourceAfter: { id: 'handbook-2026-06', digest: `sha256:${'b'.repeat(64)}` },
    result: { outcome: 'applied', changed: true, stateWritten: true },
    durationMs: 12,
    ...overrides,
  };
}

describe('the history journal', () => {
  it('appends records as lines, oldest first, private to the user, and reads them back', async () => {
    const file = path.join(dir, 'deep', 'history.jsonl');
    expect(await appendHistory(file, record())).toEqual({ ok: true, value: undefined });
    expect(
      await appendHistory(
        file,
        record({ action: 'force', result: { outcome: 'refused', changed: false, stateWritten: false, code: 'stale_plan' } }),
      ),
    ).toMatchObject({ ok: true });
    const read = await readHistory(file);
    expect(read).toMatchObject({
      ok: true,
      value: { records: [record(), expect.objectContaining({ action: 'force' })], issues: [], truncated: false },
    });
    expect((await fs.readFile(file, 'utf8')).split('\n')).toHaveLength(3);
    if (process.platform !== 'win32') expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('reads a journal that does not exist yet as empty', async () => {
    expect(await readHistory(path.join(dir, 'none.jsonl'))).toMatchObject({ ok: true, value: { records: [], issues: [] } });
  });

  it('reports a torn last record and starts the next one on a line of its own', async () => {
    const file = path.join(dir, 'history.jsonl');
    const whole = JSON.stringify(record());
    await fs.writeFile(file, `${whole}\n${whole.slice(0, 40)}`);
    const torn = await readHistory(file);
    expect(torn).toMatchObject({ ok: true, value: { records: [record()], issues: [{ line: 2, torn: true }] } });
    await appendHistory(file, record({ action: 'force' }));
    const after = await readHistory(file);
    expect(after).toMatchObject({
      ok: true,
      value: {
        records: [record(), expect.objectContaining({ action: 'force' })],
        issues: [{ line: 2, torn: false, message: expect.stringContaining('not JSON') }],
      },
    });
  });

  it('names each line it cannot read by its number, and keeps the others', async () => {
    const file = path.join(dir, 'history.jsonl');
    await fs.writeFile(file, [JSON.stringify(record()), '{"format":1}', 'garbage', JSON.stringify(record({ user: 'b' })), ''].join('\n'));
    const read = await readHistory(file);
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.records.map((entry) => entry.user)).toEqual(['ops', 'b']);
    expect(read.value.issues).toEqual([
      { line: 2, torn: false, code: 'not_a_record', message: expect.stringContaining('not a history record') },
      { line: 3, torn: false, code: 'not_json', message: expect.stringContaining('not JSON') },
    ]);
  });

  it.skipIf(process.platform === 'win32')('never writes or reads through a symbolic link in its place', async () => {
    const outside = path.join(dir, 'outside.txt');
    await fs.writeFile(outside, 'precious\n');
    const file = path.join(dir, 'history.jsonl');
    await fs.symlink(outside, file);
    expect(await appendHistory(file, record())).toMatchObject({
      ok: false,
      error: { code: 'history_unwritable', message: expect.stringContaining('symbolic link') },
    });
    expect(await fs.readFile(outside, 'utf8')).toBe('precious\n');
    expect(await readHistory(file)).toMatchObject({ ok: false, error: { code: 'history_unreadable' } });
  });

  it('says why a record could not be written, naming the file', async () => {
    const blocker = path.join(dir, 'not-a-folder');
    await fs.writeFile(blocker, '');
    const result = await appendHistory(path.join(blocker, 'history.jsonl'), record());
    expect(result).toMatchObject({ ok: false, error: { code: 'history_unwritable', message: expect.stringContaining(blocker) } });
  });

  it('reads any text without throwing: every non-empty line is a record or an issue', async () => {
    const file = path.join(dir, 'any.jsonl');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.string(), fc.constant(JSON.stringify(record()))), { maxLength: 20 }),
        fc.boolean(),
        async (lines, endsWithBreak) => {
          const text = lines.join('\n') + (endsWithBreak ? '\n' : '');
          await fs.writeFile(file, text);
          const read = await readHistory(file);
          if (!read.ok) throw new Error(read.error.message);
          const nonEmpty = text.split('\n').filter((line) => line.trim() !== '').length;
          expect(read.value.records.length + read.value.issues.length).toBe(nonEmpty);
        },
      ),
      { numRuns: 60 },
    );
  });
});
