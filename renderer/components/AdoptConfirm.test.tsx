// @vitest-environment happy-dom
// Adopt's confirmation at the level the service offers the plan at (docs/confirmations.md), over a
// stand-in bridge that records every call: backed up, one button and the explicit consent; without a
// backup, the typed id (Cancel focused, the button disabled until it matches). An adopt sent without
// its consent is refused by the service's gate, which is how the merge of the two branches broke it.
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DestinationEntry } from '../../shared/api';
import type { FolderCompare } from '../../shared/folderCompare';
import type { ConfirmationLevel } from '../../shared/plan';
import { initialState, store } from '../state/store';
import { installFakeBridge } from '../testing/fakeBridge';
import { samplePlan } from '../testing/samplePlan';
import { FolderCompareSection } from './FolderCompareSection';

let level: ConfirmationLevel = 'explicit';

const entry: DestinationEntry = {
  id: 'status-copied',
  path: '/w/destinations/status-copied',
  source: '/w/sources/status-page',
  replacePolicy: 'allow',
};

const compared: FolderCompare = {
  destinationPath: entry.path,
  destinationStatus: 'unmanaged',
  source: { path: '/w/sources/status-page', id: 'status-page', digest: 'd', created: '2026-06-02T12:00:00Z' },
  entries: [
    { path: 'index.html', status: 'matches', expected: { sha256: 's', size: 1, source_path: 'index.md', generated: true } },
    { path: 'robots.txt', status: 'extra', kind: 'file' },
  ],
  counts: { matches: 1, differs: 0, missing: 0, extra: 1 },
  adoptable: true,
  blockers: [],
};

const { calls } = installFakeBridge((method) => {
  if (method === 'compareFolder') return { ok: true, value: compared };
  if (method === 'planAdopt') {
    const plan = { ...samplePlan({ mode: 'adopt', extraDeletes: 0 }), deletes: [], destinationPath: entry.path };
    return {
      ok: true,
      value: { planId: 'plan-adopt', plan, confirmation: level, ...(level === 'typed_id' ? { confirmText: entry.id } : {}) },
    };
  }
  // The apply itself is refused: these tests stop at what the dialog sends.
  return undefined;
});

const applies = () => calls.filter((call) => call.method === 'applyPlan').map((call) => call.request);

async function openConfirmation() {
  const user = userEvent.setup();
  render(<FolderCompareSection entry={entry} source={{}} backup={{}} />);
  await user.click(screen.getByRole('button', { name: 'Compare with the source bundle' }));
  await user.click(await screen.findByRole('button', { name: 'Adopt…' }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'Adopt status-copied?' }) };
}

beforeEach(() => store.set(initialState()));
afterEach(() => {
  cleanup();
  level = 'explicit';
});

describe('Adopt’s confirmation', () => {
  it('sends the explicit consent with the plan id when the plan is backed up', async () => {
    const { user, dialog } = await openConfirmation();
    const confirm = within(dialog).getByRole('button', { name: 'Adopt: write the state file' });
    expect(document.activeElement).toBe(confirm);
    await user.click(confirm);
    await expect.poll(applies).toEqual([{ planId: 'plan-adopt', confirmed: true }]);
  });

  it('asks the typed id when no backup is kept, and sends it', async () => {
    level = 'typed_id';
    const { user, dialog } = await openConfirmation();
    const confirm = within(dialog).getByRole('button', { name: 'Adopt: write the state file' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(confirm).toHaveProperty('disabled', true);
    await user.type(within(dialog).getByLabelText(/to confirm/), 'status-copie');
    expect(confirm).toHaveProperty('disabled', true);
    await user.type(within(dialog).getByLabelText(/to confirm/), 'd');
    await user.click(confirm);
    await expect.poll(applies).toEqual([{ planId: 'plan-adopt', confirm: 'status-copied', confirmed: true }]);
  });
});
