// The bulk-mode table: every mode has its kind's words and its own test ids, and the counts of a run
// are worded with them (the panel, the dialog and the rows read only this table).

import { describe, expect, it } from 'vitest';
import { PLAN_KINDS } from '../../shared/planKinds';
import { BULK_MODE_ORDER, BULK_MODES, bulkModeOf } from './bulkModes';
import { bulkConfirmLabel, bulkOutcomeSentence } from './bulkPlan';

describe('the bulk modes', () => {
  it('word every mode with its plan kind: the title, the verb, the past tense', () => {
    expect(bulkModeOf('repair')).toMatchObject({ title: 'Repair', verb: 'repair', doneTitle: 'Repaired', done: 'repaired' });
    expect(bulkModeOf('replace')).toMatchObject({ title: 'Replace', verb: 'replace', doneTitle: 'Replaced', done: 'replaced' });
    for (const mode of BULK_MODE_ORDER) {
      const words = bulkModeOf(mode);
      expect(words.title, mode).toBe(PLAN_KINDS[words.kind].title);
      expect(words.about, mode).toMatch(/^Plans .*\.$/);
      expect(words.confirmLead, mode).toMatch(/:$/);
      expect(words.confirmTail, mode).toMatch(/^in all\. .*\.$/);
    }
  });

  it('uses the mode words for the counts of a run: the confirm button and the outcome sentence', () => {
    for (const mode of BULK_MODE_ORDER) {
      const { title, done } = bulkModeOf(mode);
      expect(bulkConfirmLabel({ planned: 1 }, mode)).toBe(`${title} 1 destination`);
      expect(bulkConfirmLabel({ planned: 1200 }, mode)).toBe(`${title} 1,200 destinations`);
      expect(bulkOutcomeSentence({ replaced: 2, refused: 1, failed: 0, notRun: 0, pending: 3 }, mode)).toBe(
        `2 ${done}, 1 refused, 3 to go`,
      );
    }
  });

  it('says what one completed apply did, as its row shows it', () => {
    const result = { deleted: ['a.html'], written: ['a.html', 'b.html'] };
    expect(bulkModeOf('replace').doneWork(result)).toBe('deleted 1 path, wrote 2 files');
    expect(bulkModeOf('repair').doneWork({ deleted: [], written: ['a.html'] })).toBe('wrote 1 file');
  });

  it('gives each mode its own test ids, so a spec finds the summaries of one run', () => {
    const ids = BULK_MODE_ORDER.flatMap((mode) => [BULK_MODES[mode].planSummaryTestId, BULK_MODES[mode].outcomeSummaryTestId]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('offers only kinds confirmed once for all: none that asks for its destination id typed', () => {
    for (const mode of BULK_MODE_ORDER) expect(PLAN_KINDS[BULK_MODES[mode].kind].confirmsById, mode).toBe(false);
  });
});
