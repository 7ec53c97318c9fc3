// @vitest-environment happy-dom
// The one confirmation of a bulk run, worded by its mode's row (renderer/view/bulkModes.ts): a replace
// names the edits it loses and says no forced replace is offered; a repair, which rewrites exactly
// the drifted outputs (edited ones among them), says neither.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { planCounts } from '../../shared/planCounts';
import type { ReplacePlan } from '../../shared/plan';
import { samplePlan, sampleRepairPlan } from '../testing/samplePlan';
import { bulkPlanSummary, type BulkRow } from '../view/bulkPlan';
import { BulkReplaceDialog } from './BulkReplaceDialog';

afterEach(cleanup);

const planned = (id: string, plan: ReplacePlan): BulkRow => ({
  id,
  plan: { kind: 'planned', planId: `plan-${id}`, plan, counts: planCounts(plan) },
});
const left: BulkRow = { id: 'docs-eu', plan: { kind: 'refused', reason: 'It would keep no backup.' } };

function renderDialog(mode: 'replace' | 'repair', rows: BulkRow[]) {
  render(<BulkReplaceDialog mode={mode} rows={rows} summary={bulkPlanSummary(rows)} onCancel={() => {}} onConfirm={() => {}} />);
}

describe('the bulk confirmation', () => {
  it('words a repair as a repair: its sentence, no edits said lost, no forced replace mentioned', () => {
    const rows = [planned('docs-a', sampleRepairPlan()), planned('docs-b', sampleRepairPlan()), left];
    // The drifted output it rewrites counts as changed on disk: a repair does not lose it, it is its job.
    expect(sampleRepairPlan().summary.changedCount).toBe(1);
    renderDialog('repair', rows);
    expect(screen.getByRole('dialog', { name: 'Repair 2 destinations?' })).toBeTruthy();
    expect(screen.getByTestId('bulk-confirm-counts').textContent).toBe(
      `A repair of each, one after another: only the outputs verify found drifted are written again, from bytes proven from its configured source, and each is recorded in the history on its own: ${screen.getByTestId('bulk-confirm-counts').querySelector('strong')!.textContent} in all. The state files and extra files stay; what is overwritten is kept in a backup. A refusal or failure of one does not stop the others.`,
    );
    expect(screen.queryByTestId('bulk-confirm-changed')).toBeNull();
    expect(screen.queryByTestId('bulk-no-force')).toBeNull();
    expect(screen.queryByText(/edited output/)).toBeNull();
    expect(screen.getByTestId('bulk-confirm-left').querySelector('summary')!.textContent).toBe('1 destination not repaired');
    expect(screen.getByRole('button', { name: 'Repair 2 destinations' })).toBeTruthy();
  });

  it('words a replace as a replace: the edits it loses, per row and in all, and no forced replace offered', () => {
    const edited: ReplacePlan = {
      ...samplePlan(),
      deletes: samplePlan().deletes.map((entry) =>
        entry.path === 'page-1.html' ? { ...entry, changed: 'hash_mismatch' as const } : entry,
      ),
      summary: { ...samplePlan().summary, changedCount: 1 },
    };
    const rows = [planned('docs-a', edited), planned('docs-b', samplePlan()), left];
    renderDialog('replace', rows);
    expect(screen.getByRole('dialog', { name: 'Replace 2 destinations?' })).toBeTruthy();
    expect(screen.getByTestId('bulk-confirm-counts').textContent).toBe(
      `A normal replace of each, one after another, each from its configured source and recorded in the history on its own: ${screen.getByTestId('bulk-confirm-counts').querySelector('strong')!.textContent} in all. Extra files are kept; a refusal or failure of one does not stop the others.`,
    );
    expect(screen.getByTestId('bulk-confirm-changed').textContent).toBe(
      ' 1 recorded output was changed on disk since published: these replaces delete it, and those edits will be lost.',
    );
    expect(screen.getByTestId('bulk-no-force')).toBeTruthy();
    expect(screen.getAllByText(/· 1 edited output lost/)).toHaveLength(1);
    expect(screen.getByTestId('bulk-confirm-left').querySelector('summary')!.textContent).toBe('1 destination not replaced');
  });
});
