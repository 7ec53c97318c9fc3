import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { archivedLogPath, createFileLogger, createStderrLogger, logFolder, rotateLogFile, sanitizeLogText } from './logFile';

let folder: string;
let loggerCount = 0;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'inspector-logs-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('rotateLogFile', () => {
  it('shifts every archive up by one and drops the oldest', async () => {
    const log = join(folder, 'main.log');
    await writeFile(log, 'now');
    await writeFile(archivedLogPath(log, 1), 'one');
    await writeFile(archivedLogPath(log, 2), 'two');

    expect(rotateLogFile(log, 2)).toBe(true);

    expect((await readdir(folder)).sort()).toEqual(['main.1.log', 'main.2.log']);
    expect(await readFile(archivedLogPath(log, 1), 'utf8')).toBe('now');
    expect(await readFile(archivedLogPath(log, 2), 'utf8')).toBe('one');
  });

  it('reports failure instead of throwing when there is no log to rotate', () => {
    expect(rotateLogFile(join(folder, 'main.log'))).toBe(false);
  });
});

describe('createFileLogger', () => {
  it('writes to <folder>/main.log and rotates it, keeping only the configured archives', async () => {
    const logs = logFolder(folder);
    const logger = createFileLogger({ folder: logs, maxSizeBytes: 300, keep: 2, logId: `test-${loggerCount++}` });
    expect(logger.file).toBe(join(folder, 'logs', 'main.log'));

    for (let line = 0; line < 40; line++) logger.info(`line ${line} ${'x'.repeat(40)}`);

    expect((await readdir(logs)).sort()).toEqual(['main.1.log', 'main.2.log', 'main.log']);
    const current = await readFile(logger.file, 'utf8');
    expect(current).toContain('line 39');
    expect(current).not.toContain('line 0 ');
    expect(current).toMatch(/^\[\d{4}-\d{2}-\d{2} [\d:.]+\] \[info\]\s+line/);
    // The newest archive holds the lines just before the current file.
    const newest = await readFile(archivedLogPath(logger.file, 1), 'utf8');
    expect(newest).toMatch(/line 3\d/);
  });

  it('marks scoped lines, so renderer entries can be told from the main process', async () => {
    const logger = createFileLogger({ folder, logId: `test-${loggerCount++}` });
    logger.scoped('renderer').error('the scan failed');
    expect(await readFile(logger.file, 'utf8')).toMatch(/\[error\] \(renderer\)\s+the scan failed/);
  });
});

describe('sanitizeLogText', () => {
  it('keeps one entry on one line whatever the renderer sends', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const clean = sanitizeLogText(text);
        expect(clean).not.toMatch(/[\u0000-\u001f\u007f\u2028\u2029]/);
      }),
    );
  });

  it('escapes a forged line break visibly', () => {
    expect(sanitizeLogText('ok\n[2026-01-01 00:00:00.000] [info] fake')).toBe('ok\\n[2026-01-01 00:00:00.000] [info] fake');
  });

  it('caps the length and says how much was cut', () => {
    expect(sanitizeLogText('abcdefghij', 4)).toBe('abcd… (6 more characters)');
  });
});

describe('createStderrLogger', () => {
  it('prints nothing without --debug', () => {
    const lines: string[] = [];
    const logger = createStderrLogger({ debug: false, write: (line) => lines.push(line) });
    logger.error('boom');
    logger.info('hello');
    expect(lines).toEqual([]);
  });

  it('prints one timestamped line per call with --debug, stack traces included', () => {
    const lines: string[] = [];
    const logger = createStderrLogger({ debug: true, write: (line) => lines.push(line), now: () => new Date('2026-12-02T18:00:00.000Z') });
    logger.warn('slow disk', { ms: 1200 });
    logger.error(new Error('boom'));
    expect(lines[0]).toBe('[2026-12-02T18:00:00.000Z] [warn] slow disk {"ms":1200}\n');
    expect(lines[1]).toMatch(/^\[2026-12-02T18:00:00.000Z\] \[error\] Error: boom\n\s+at /);
  });
});
