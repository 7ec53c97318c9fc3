import { countEntries } from '../../shared/planCounts';
import { describe, expect, it } from 'vitest';
import { HISTORY_FORMAT, type HistoryRecord } from '../../shared/historySchema';
import { filterHistoryRows, historyActions, historyRows, keptText, sourceText } from './historyRows';

const digest = (c: string) => `sha256:${c.repeat(64)}`;
function record(overrides: Partial<HistoryRecord>): HistoryRecord {
  return {
    format: HISTORY_FORMAT,
    at: '2026-12-03T17:30:00Z',
    user: 'ops',
    host: 'desk',
    transport: 'http',
    destination: { id: 'docs-eu', path: '/srv/docs-eu' },
    action: 'replace',
    sourcePath: '/srv/src',
    counts: { delete: 2, write: 3, keep: 1 },
    result: { outcome: 'applied', changed: true, stateWritten: true },
    durationMs: 5,
    ...overrides,
  };
}

describe('history rows', () => {
  it('lists the newest first, with the words of each outcome and who applied it', () => {
    const rows = historyRows([
      record({}),
      record({
        at: '2026-12-03T18:00:00Z',
        action: 'force',
        transport: 'cli',
        result: { outcome: 'refused', changed: false, stateWritten: false, code: 'stale_plan', message: 'plan again' },
      }),
    ]);
    expect(rows.map((row) => [row.at, row.actionLabel, row.outcome, row.tone, row.reason, row.by])).toEqual([
      ['2026-12-03T18:00:00Z', 'forced replace', 'refused', 'tone-warning', 'stale_plan: plan again', 'ops@desk, command line'],
      ['2026-12-03T17:30:00Z', 'replace', 'applied', 'tone-good', undefined, 'ops@desk, browser host'],
    ]);
    // A record written before the counts vocabulary: said with what it knew, never as files lost.
    expect(rows[1]!.counts).toBe('3 paths written, 2 paths removed, 1 path kept');
  });

  it('says the counts a record carries in the words the dialog used: done when applied, planned when not', () => {
    const changes = { ...countEntries([]), created: 1, updated: 2, deleted: 1, kept: 1, stateFile: 'update' as const };
    const applied = historyRows([record({ changes })])[0]!;
    expect(applied.counts).toBe('created 1 file, updated 2 files (the state file among them), deleted 1 file, kept 1 file');
    const refused = historyRows([
      record({ changes, result: { outcome: 'refused', changed: false, stateWritten: false, code: 'stale_plan' } }),
    ])[0]!;
    expect(refused.counts).toBe('planned: create 1 file, update 2 files (the state file among them), delete 1 file, keep 1 file');
  });

  it('names the source moved from and to, telling two publications of one id apart by digest', () => {
    expect(sourceText({ sourceBefore: { id: 'a', digest: digest('1') }, sourceAfter: { id: 'b', digest: digest('2') } })).toBe('a → b');
    expect(sourceText({ sourceBefore: { id: 'a', digest: digest('1') }, sourceAfter: { id: 'a', digest: digest('2') } })).toBe(
      'a (111111111111 → 222222222222)',
    );
    expect(sourceText({ sourceAfter: { id: 'b', digest: digest('2') } })).toBe('none → b');
    expect(sourceText({ sourceBefore: { id: 'a', digest: digest('1') } })).toBe('a (unchanged)');
    expect(sourceText({})).toBe('—');
  });

  it('filters by action and outcome together, and offers the actions present', () => {
    const rows = historyRows([
      record({}),
      record({ action: 'force' }),
      record({ action: 'force', result: { outcome: 'failed', changed: true, stateWritten: false, code: 'io_error' } }),
    ]);
    expect(filterHistoryRows(rows, { action: 'force' })).toHaveLength(2);
    expect(filterHistoryRows(rows, { action: 'force', outcome: 'failed' })).toHaveLength(1);
    expect(filterHistoryRows(rows, {})).toHaveLength(3);
    expect(historyActions(rows)).toEqual([
      { action: 'force', label: 'forced replace' },
      { action: 'replace', label: 'replace' },
    ]);
  });
});

describe('keptText', () => {
  it('names what a repair kept as it is, and nothing for a record that kept none', () => {
    const repair = (paths: string[], count = paths.length) => ({ rewrite: { count: 1, paths: ['a'] }, kept: { count, paths } });
    expect(keptText({ repair: repair(['report.html']) })).toBe('kept as it is: report.html');
    expect(keptText({ repair: repair(['a', 'b', 'c', 'd'], 120) })).toBe('kept as they are: a, b, c and 117 more');
    expect(keptText({ repair: repair([]) })).toBeUndefined();
    expect(keptText({})).toBeUndefined();
  });
});
