import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adoptBlockers, adoptWritesText, folderCounts, folderCountsText, type FolderEntry } from './folderCompare';

const entry = (path: string, status: FolderEntry['status']): FolderEntry => ({ path, status });

describe('adoptBlockers', () => {
  it('lets an unmanaged folder be adopted when every expected file matches, whatever extras it holds', () => {
    expect(adoptBlockers({ destinationStatus: 'unmanaged', entries: [entry('a.html', 'matches'), entry('notes.txt', 'extra')] })).toEqual(
      [],
    );
  });

  it('names the files that differ and those missing, and refuses a folder that has a state file or nothing', () => {
    const blockers = adoptBlockers({
      destinationStatus: 'invalid',
      entries: [entry('a.html', 'differs'), entry('b.html', 'missing'), entry('c.html', 'matches')],
    });
    expect(blockers.map((blocker) => blocker.code)).toEqual(['invalid_state', 'outputs_differ', 'outputs_missing']);
    expect(blockers[1]!.message).toBe('1 file the source publishes differs on disk (a.html)');
    expect(blockers[2]!.paths).toEqual(['b.html']);
    expect(adoptBlockers({ destinationStatus: 'managed', entries: [] })[0]!.code).toBe('has_state');
    expect(adoptBlockers({ destinationStatus: 'empty', entries: [] })[0]!.code).toBe('empty');
  });

  it('is empty exactly when the folder is unmanaged and nothing differs or is missing (any entries)', () => {
    const statuses = fc.constantFrom<FolderEntry['status']>('matches', 'differs', 'missing', 'extra');
    fc.assert(
      fc.property(fc.array(statuses), fc.constantFrom('empty', 'unmanaged', 'managed', 'invalid' as const), (kinds, status) => {
        const entries = kinds.map((kind, index) => entry(`f${index}`, kind));
        const clear = status === 'unmanaged' && kinds.every((kind) => kind === 'matches' || kind === 'extra');
        expect(adoptBlockers({ destinationStatus: status, entries }).length === 0).toBe(clear);
        const counts = folderCounts(entries);
        expect(counts.matches + counts.differs + counts.missing + counts.extra).toBe(entries.length);
      }),
    );
  });
});

describe('the words of a folder compare and an adopt', () => {
  it('says the counts and what an adopt writes in proper plurals', () => {
    expect(folderCountsText({ matches: 1, differs: 2, missing: 0, extra: 1 })).toBe('1 matches · 2 differ · 0 missing · 1 extra');
    expect(adoptWritesText(1, 1)).toBe(
      'Write only .distributor.json, recording 1 file already in place; no other byte is written, moved or deleted; 1 extra entry stays as it is.',
    );
    expect(adoptWritesText(3, 2)).toContain('; 2 extra entries stay as they are.');
    expect(adoptWritesText(3, 0)).toBe(
      'Write only .distributor.json, recording 3 files already in place; no other byte is written, moved or deleted.',
    );
  });
});
