// @vitest-environment happy-dom
// The Actions tab's Repair and Discard staging, over a stand-in for the preload bridge that answers
// planRepair and planDiscardStaging with schema-valid plans and records every call: Repair is offered
// only after verify found drift, lists what it rewrites, refuses by name and keeps, applies a partial
// repair only once accepted; Discard staging says what the folder holds; both apply by plan id alone.
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DestinationEntry, VerifyEntry } from '../../shared/api';
import type { Issue } from '../../shared/issues';
import { fingerprintOf } from '../../shared/verifyFreshness';
import { initialState, store } from '../state/store';
import { planCounts, planCountsSentence } from '../../shared/planCounts';
import { selectRepair } from '../../shared/repairSelection';
import { installFakeBridge } from '../testing/fakeBridge';
import { sampleDiscardPlan, sampleRepairPlan } from '../testing/samplePlan';
import { DestinationTable } from '../view/destinationTable';
import { ActionsTab } from './ActionsTab';

let refused = 0;
let changedSince = false;

const { calls } = installFakeBridge((method, request) => {
  if (method === 'planRepair') {
    const keep = (request as { keep?: string[] }).keep;
    if (keep === undefined)
      return { ok: true, value: { planId: 'plan-repair', confirmation: 'explicit', plan: sampleRepairPlan({ refused }) } };
    // Planned again with a selection: the engine's narrowing, or (changedSince) a destination that changed meanwhile.
    const base = sampleRepairPlan({ refused });
    if (changedSince) base.repair!.repairs[1]!.status = 'size_mismatch';
    const narrowed = selectRepair(base, keep);
    return narrowed.ok
      ? { ok: true, value: { planId: 'plan-repair-kept', confirmation: 'explicit', plan: narrowed.value } }
      : { ok: false, error: { code: 'refused', message: narrowed.error.message } };
  }
  if (method === 'planDiscardStaging')
    return { ok: true, value: { planId: 'plan-discard', confirmation: 'explicit', plan: sampleDiscardPlan() } };
  if (method === 'listBackups')
    return {
      ok: true,
      value: {
        settings: { enabled: true, folder: '/w/.inspector-backups', keep: 5 },
        backups: [],
        target: { enabled: true, folder: '/w/.inspector-backups/legacy-site', method: 'rename' },
      },
    };
  // Anything else (the apply itself) is refused: these tests stop at what the tab asked for.
  return undefined;
});

const entry: DestinationEntry = {
  id: 'legacy-site',
  path: '/w/destinations/legacy-site',
  source: '/w/sources/handbook-2026-06',
  replacePolicy: 'allow',
};

function verified(status: 'intact' | 'drifted') {
  const verify: VerifyEntry = {
    destination: entry.id,
    report: { status, outputs: [], extra: [] },
    stamp: { verifiedAt: new Date().toISOString(), basis: fingerprintOf({ listingDigest: 'l' }) },
  };
  store.set({ destinationTable: DestinationTable.of('/w', [entry]).withVerify([verify]) });
}

const interrupted: Issue[] = [{ path: [], code: 'interrupted_replace', message: 'a staging folder is left', severity: 'warning' }];
const applies = () => calls.filter((call) => call.method === 'applyPlan').map((call) => call.request);

beforeEach(() => store.set(initialState()));
afterEach(() => {
  cleanup();
  refused = 0;
  changedSince = false;
});

describe('Repair in the Actions tab', () => {
  it('is not offered before a verify found drift, and says why', () => {
    render(<ActionsTab entry={entry} />);
    expect(screen.queryByRole('button', { name: 'Plan repair' })).toBeNull();
    expect(screen.getByTestId('repair-not-offered').textContent).toContain('Verify this destination');
  });

  it('says there is nothing to repair when the last verify found every output intact', () => {
    verified('intact');
    render(<ActionsTab entry={entry} />);
    expect(screen.queryByRole('button', { name: 'Plan repair' })).toBeNull();
    expect(screen.getByTestId('repair-not-offered').textContent).toContain('nothing to repair');
  });

  it('on a drifted destination, lists what it rewrites and keeps, and applies by plan id with one button that names the count', async () => {
    verified('drifted');
    const user = userEvent.setup();
    render(<ActionsTab entry={entry} />);
    await user.click(screen.getByRole('button', { name: 'Plan repair' }));
    expect(calls.find((call) => call.method === 'planRepair')?.request).toEqual({ destination: entry.id });
    const list = await screen.findByRole('list', { name: /Every output the repair rewrites/ });
    const items = within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      'rewriteindex.htmlcontent changed · regenerated from index.md',
      'rewritestyle.cssmissing · copied from the source',
      'keepnotes.txtextra file · kept',
    ]);
    expect(screen.getByTestId('repair-summary').textContent).toContain('the state file and 1 extra file stay as they are');
    // Every drifted output ticked by default: the plan as planned, applied without planning again.
    expect(screen.getAllByRole('checkbox').map((box) => [box.getAttribute('id'), (box as HTMLInputElement).checked])).toEqual([
      ['repair-choice-0', true],
      ['repair-choice-1', true],
    ]);
    // Nothing destructive is one click: the button opens the confirmation, which names the same counts.
    await user.click(screen.getByRole('button', { name: 'Repair: create 1 file, update 1 file…' }));
    expect(applies()).toEqual([]);
    const dialog = screen.getByRole('alertdialog', { name: 'Repair legacy-site?' });
    expect(within(dialog).getByTestId('apply-confirm-counts').textContent).toContain('Repair: create 1 file, update 1 file');
    await user.click(within(dialog).getByRole('button', { name: 'Repair: create 1 file, update 1 file' }));
    expect(applies()).toEqual([{ planId: 'plan-repair', confirmed: true }]);
  });

  it('names each refused output with its reason, and applies the rest only once the partial repair is accepted', async () => {
    verified('drifted');
    refused = 1;
    const user = userEvent.setup();
    render(<ActionsTab entry={entry} />);
    await user.click(screen.getByRole('button', { name: 'Plan repair' }));
    const list = await screen.findByRole('list', { name: /Every output the repair rewrites/ });
    expect(within(list).getByText('page-1.html').closest('li')?.textContent).toContain(
      'the expected bytes are not available for page-1.html: the source changed since',
    );
    const apply = screen.getByRole('button', { name: /^Repair: .*\(1 refused output left as it is\)…$/ });
    expect(apply).toHaveProperty('disabled', true);
    const accept = screen.getByRole('checkbox', { name: /Accept partial repair: rewrite the other 2 and leave the 1 refused/ });
    await user.click(accept);
    expect(apply).toHaveProperty('disabled', false);
    await user.click(apply);
    await user.click(within(screen.getByRole('alertdialog')).getByTestId('apply-confirm'));
    expect(applies()).toEqual([{ planId: 'plan-repair', confirmed: true, acceptPartial: true }]);
  });

  it('keeps an unticked output as it is: the counts follow each box, and the apply plans that choice and sends it', async () => {
    verified('drifted');
    const user = userEvent.setup();
    render(<ActionsTab entry={entry} />);
    await user.click(screen.getByRole('button', { name: 'Plan repair' }));
    const count = await screen.findByTestId('repair-choice-count');
    expect(count.textContent).toBe('2 of 2 drifted outputs ticked to rewrite');
    await user.click(screen.getByRole('checkbox', { name: 'index.html' }));
    expect(count.textContent).toBe('1 of 2 drifted outputs ticked to rewrite · 1 kept as it is');
    expect(screen.getByText('index.html').closest('li')?.textContent).toContain('keep as is');
    expect(screen.getByText('index.html').closest('li')?.textContent).toContain('kept as it is, still drifted after');
    await user.click(screen.getByRole('button', { name: 'Repair: rewrite 1 output, keep 1 as it is…' }));
    // The confirmation names the counts of the choice, not of the plan made before a box was unticked.
    const dialog = await screen.findByRole('alertdialog');
    const full = sampleRepairPlan({ refused });
    const chosen = selectRepair(full, ['index.html']);
    if (!chosen.ok) throw new Error(chosen.error.message);
    const sentence = within(dialog).getByTestId('apply-confirm').textContent;
    expect(sentence).toBe(planCountsSentence('repair', planCounts(chosen.value)));
    expect(sentence).not.toBe(planCountsSentence('repair', planCounts(full)));
    expect(document.activeElement).toBe(within(dialog).getByTestId('apply-confirm'));
    await user.click(within(dialog).getByTestId('apply-confirm'));
    expect(calls.filter((call) => call.method === 'planRepair').map((call) => call.request)).toEqual([
      { destination: entry.id },
      { destination: entry.id, keep: ['index.html'] },
    ]);
    expect(applies()).toEqual([{ planId: 'plan-repair-kept', confirmed: true, keep: ['index.html'] }]);
  });

  it('disables the apply with its reason when no output is ticked, and Select all ticks them again', async () => {
    verified('drifted');
    const user = userEvent.setup();
    render(<ActionsTab entry={entry} />);
    await user.click(screen.getByRole('button', { name: 'Plan repair' }));
    await user.click(await screen.findByRole('button', { name: 'Select none' }));
    expect(screen.getAllByRole('checkbox').every((box) => !(box as HTMLInputElement).checked)).toBe(true);
    const apply = screen.getByRole('button', { name: /^Repair: rewrite 0 outputs, keep 2 as they are/ });
    expect(apply).toHaveProperty('disabled', true);
    expect(document.getElementById(apply.getAttribute('aria-describedby') ?? '')?.textContent).toContain('No output is ticked');
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    expect(screen.getByRole('button', { name: 'Repair: create 1 file, update 1 file…' })).toHaveProperty('disabled', false);
    expect(screen.queryByTestId('repair-none-chosen')).toBeNull();
  });

  it('shows the new plan instead of applying when planning the choice again finds the destination changed', async () => {
    verified('drifted');
    changedSince = true;
    const user = userEvent.setup();
    render(<ActionsTab entry={entry} />);
    await user.click(screen.getByRole('button', { name: 'Plan repair' }));
    await user.click(await screen.findByRole('checkbox', { name: 'index.html' }));
    await user.click(screen.getByRole('button', { name: 'Repair: rewrite 1 output, keep 1 as it is…' }));
    await user.click(within(screen.getByRole('alertdialog')).getByTestId('apply-confirm'));
    expect(await screen.findByText('The destination changed since you reviewed it')).toBeTruthy();
    expect(applies()).toEqual([]);
    // The plan shown is the new one, with the selection it was made with.
    expect((screen.getByRole('checkbox', { name: 'index.html' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText('style.css').closest('li')?.textContent).toContain('size changed');
  });

  it('plans from the bundle chosen under Plan from', async () => {
    verified('drifted');
    const user = userEvent.setup();
    render(<ActionsTab entry={entry} />);
    const input = screen.getByLabelText(/source bundle/i, { selector: 'input' });
    await user.clear(input);
    await user.type(input, '/w/sources/older');
    await user.click(screen.getByRole('button', { name: 'Plan repair' }));
    expect(calls.find((call) => call.method === 'planRepair')?.request).toEqual({ destination: entry.id, source: '/w/sources/older' });
  });
});

describe('Discard staging in the Actions tab', () => {
  it('is offered only on an interrupted destination', () => {
    render(<ActionsTab entry={entry} />);
    expect(screen.queryByRole('button', { name: 'Plan discarding staging' })).toBeNull();
  });

  it('says which publication the staging folder holds and how many files, and removes it by plan id', async () => {
    const user = userEvent.setup();
    render(<ActionsTab entry={entry} issues={interrupted} />);
    await user.click(screen.getByRole('button', { name: 'Plan discarding staging' }));
    const plan = await screen.findByTestId('plan-discard');
    expect(plan.textContent).toContain('.distributor-staging/');
    expect(plan.textContent).toContain('An interrupted replace of handbook, started');
    expect(plan.textContent).toContain('3 files staged (2.0 KiB)');
    // Where the folder goes before it is removed: a discard keeps its backup as every apply does.
    expect(within(plan).getByTestId('backup-target').textContent).toContain(
      'What this apply deletes or overwrites is kept as a backup in /w/.inspector-backups/legacy-site/<UTC time>/, moved there by rename',
    );
    await user.click(
      screen.getByRole('button', { name: /^Discard staging: delete 1 folder.* \(\.distributor-staging, 3 staged files\)…$/ }),
    );
    await user.click(within(screen.getByRole('alertdialog')).getByTestId('apply-confirm'));
    expect(applies()).toEqual([{ planId: 'plan-discard', confirmed: true }]);
  });
});
