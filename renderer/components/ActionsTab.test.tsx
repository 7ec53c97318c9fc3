// @vitest-environment happy-dom
// The Actions tab's guards, over a stand-in for the preload bridge that answers planReplace with a
// schema-valid plan and records every call, so the tests see exactly what the tab asks the engine to do.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { DestinationEntry } from '../../shared/api';
import type { ReplacePlan } from '../../shared/plan';
import { installFakeBridge } from '../testing/fakeBridge';
import { samplePlan } from '../testing/samplePlan';
import { ActionsTab } from './ActionsTab';

let decision: NonNullable<ReplacePlan['comparison']>['decision'] = 'replace';
let replaceAllowed = true;

const { calls } = installFakeBridge((method, request) => {
  if (method === 'planReplace') {
    const { mode } = request as { mode: 'replace' | 'force' };
    const plan = samplePlan({ mode, decision: mode === 'force' ? 'unmanaged' : decision, replaceAllowed });
    return {
      ok: true,
      value: {
        planId: `plan-${mode}`,
        plan,
        ...(mode === 'force' ? { confirmation: 'typed_id', confirmText: 'legacy-site' } : { confirmation: 'explicit' }),
      },
    };
  }
  // Anything else (the apply itself) is refused: these tests stop at what the tab asked for.
  return undefined;
});

afterEach(() => {
  cleanup();
  decision = 'replace';
  replaceAllowed = true;
});

const entry = (replacePolicy: DestinationEntry['replacePolicy'] = 'allow'): DestinationEntry => ({
  id: 'legacy-site',
  path: '/w/destinations/legacy-site',
  source: '/w/sources/handbook-2026-06',
  replacePolicy,
});
const applies = () => calls.filter((call) => call.method === 'applyPlan').map((call) => call.request);

describe('the Actions tab', () => {
  it('offers an unmanaged destination the folder compare and the forced replace, no normal replace, and says why in one sentence', () => {
    render(<ActionsTab entry={entry()} status="unmanaged" />);
    expect(screen.queryByRole('button', { name: 'Plan replace' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Repair' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Compare with the source bundle' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Plan forced replace' })).toBeTruthy();
    expect(screen.getByTestId('actions-not-offered').textContent).toContain('if its files already match, Adopt writes only the state file');
  });

  it('offers a managed destination no folder compare', () => {
    render(<ActionsTab entry={entry()} status="managed" />);
    expect(screen.queryByRole('button', { name: 'Compare with the source bundle' })).toBeNull();
  });

  it('gives each section a banner goes to its id and a place in the focus order only by script', () => {
    render(<ActionsTab entry={entry()} status="managed" />);
    for (const id of ['action-replace', 'action-repair', 'action-forced-replace'])
      expect(document.getElementById(id)?.getAttribute('tabindex')).toBe('-1');
    expect(screen.queryByTestId('actions-not-offered')).toBeNull();
  });

  it('confirms a normal replace in a dialog that names the counts, by Enter, and applies by plan id alone', async () => {
    const user = userEvent.setup();
    render(<ActionsTab entry={entry()} />);
    await user.click(screen.getByRole('button', { name: 'Plan replace' }));
    const review = await screen.findByRole('button', {
      name: 'Replace: create 2 files, delete 3 files (the state file among them) from handbook-2026-06…',
    });
    expect(review).toHaveProperty('disabled', false);
    await user.click(review);
    const dialog = screen.getByRole('dialog', { name: 'Replace legacy-site?' });
    expect(screen.getByTestId('replace-confirm-counts').textContent).toContain(
      'Replace: create 2 files, delete 3 files (the state file among them)',
    );
    expect(applies()).toEqual([]);
    // The confirm button has the focus: Enter applies.
    expect(document.activeElement?.textContent).toBe('Replace: create 2 files, delete 3 files (the state file among them)');
    await user.keyboard('{Enter}');
    expect(applies()).toEqual([{ planId: 'plan-replace', confirmed: true }]);
    // Confirmed, the dialog goes; the tab shows the apply's answer (refused by this stand-in bridge).
    expect(dialog.isConnected).toBe(false);
    expect(await screen.findByText(/applyPlan: not in this test/)).toBeTruthy();
  });

  it('keeps the outcome of a replace on screen when the destination it left is no longer offered a replace', async () => {
    const user = userEvent.setup();
    const { rerender } = render(<ActionsTab entry={entry()} status="managed" />);
    await user.click(screen.getByRole('button', { name: 'Plan replace' }));
    await user.click(await screen.findByRole('button', { name: /^Replace: / }));
    await user.keyboard('{Enter}');
    expect(await screen.findByText(/applyPlan: not in this test/)).toBeTruthy();
    // Read again, the folder is unmanaged (a replace killed between removing the old state and writing the new).
    rerender(<ActionsTab entry={entry()} status="unmanaged" />);
    expect(screen.queryByRole('button', { name: 'Plan replace' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Replace outcome' }).textContent).toContain('applyPlan: not in this test');
  });

  it('applies nothing when the normal replace dialog is cancelled', async () => {
    const user = userEvent.setup();
    render(<ActionsTab entry={entry()} />);
    await user.click(screen.getByRole('button', { name: 'Plan replace' }));
    await user.click(await screen.findByRole('button', { name: /^Replace: / }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: /^Replace: / }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(applies()).toEqual([]);
  });

  it.each(['conflict', 'unmanaged', 'skip_newer'] as const)(
    'keeps the normal replace disabled when the decision is %s',
    async (refused) => {
      decision = refused;
      const user = userEvent.setup();
      render(<ActionsTab entry={entry()} />);
      await user.click(screen.getByRole('button', { name: 'Plan replace' }));
      const confirm = await screen.findByRole('button', { name: /^Replace: / });
      expect(confirm).toHaveProperty('disabled', true);
      await user.click(confirm);
      expect(applies()).toEqual([]);
    },
  );

  it("keeps the normal replace disabled when the engine's words say the policy denies it", async () => {
    replaceAllowed = false;
    const user = userEvent.setup();
    render(<ActionsTab entry={entry('deny')} />);
    await user.click(screen.getByRole('button', { name: 'Plan replace' }));
    expect(await screen.findByRole('button', { name: /^Replace: / })).toHaveProperty('disabled', true);
  });

  it('applies a forced replace only from its alertdialog, once the destination id is typed', async () => {
    const user = userEvent.setup();
    render(<ActionsTab entry={entry()} />);
    await user.click(screen.getByRole('button', { name: 'Plan forced replace' }));
    await user.click(await screen.findByRole('button', { name: 'Review and force replace…' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Force replace legacy-site?' });
    const confirm = screen.getByRole('button', { name: 'Forced replace: create 2 files, delete 3 files (the state file among them)' });
    expect(dialog.contains(confirm)).toBe(true);
    expect(confirm).toHaveProperty('disabled', true);
    await user.type(screen.getByLabelText(/Type legacy-site to confirm/), 'legacy-site');
    expect(applies()).toEqual([]);
    await user.click(confirm);
    expect(applies()).toEqual([{ planId: 'plan-force', confirm: 'legacy-site', confirmed: true }]);
  });

  it('closes the forced replace dialog on Esc without applying', async () => {
    const user = userEvent.setup();
    render(<ActionsTab entry={entry()} />);
    await user.click(screen.getByRole('button', { name: 'Plan forced replace' }));
    await user.click(await screen.findByRole('button', { name: 'Review and force replace…' }));
    await user.type(screen.getByLabelText(/Type legacy-site to confirm/), 'legacy-site');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(applies()).toEqual([]);
  });

  it('says what to do when the state file cannot be read: permission denied, the path, and who needs access', () => {
    const message =
      'permission denied: /w/destinations/legacy-site/.distributor.json cannot be read by the inspector (owned by uid 0, gid 0, mode 0600; the inspector runs as uid 1000)';
    render(<ActionsTab entry={entry()} issues={[{ path: [], code: 'state_unreadable', message, severity: 'error' }]} />);
    expect(screen.getByText('The state file cannot be read: permission denied')).toBeTruthy();
    expect(screen.getByText(message)).toBeTruthy();
    expect(screen.getByText(/Give the user the inspector runs as read access to/)).toBeTruthy();
    expect(screen.getByText(/Then rescan/)).toBeTruthy();
  });

  it('gives no permission advice when the state file was read', () => {
    render(<ActionsTab entry={entry()} issues={[{ path: [], code: 'invalid_json', message: 'x', severity: 'error' }]} />);
    expect(screen.queryByText(/permission denied/)).toBeNull();
  });

  it('plans both actions from the bundle chosen above, and drops a shown plan when another is chosen', async () => {
    const user = userEvent.setup();
    render(<ActionsTab entry={entry()} />);
    const field = screen.getByLabelText('Source bundle');
    expect(field).toHaveProperty('value', '/w/sources/handbook-2026-06');
    await user.click(screen.getByRole('button', { name: 'Plan replace' }));
    await screen.findByRole('button', { name: /^Replace: / });
    // The configured source is the engine's default: not sent.
    expect(calls.at(-1)).toEqual({ method: 'planReplace', request: { destination: 'legacy-site', mode: 'replace' } });

    await user.clear(field);
    await user.type(field, 'sources/handbook-2026-05');
    expect(screen.queryByRole('button', { name: /^Replace: / })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Plan replace' }));
    await user.click(screen.getByRole('button', { name: 'Plan forced replace' }));
    const planned = calls.filter((call) => call.method === 'planReplace').slice(-2);
    expect(planned.map((call) => call.request)).toEqual([
      { destination: 'legacy-site', mode: 'replace', source: 'sources/handbook-2026-05' },
      { destination: 'legacy-site', mode: 'force', source: 'sources/handbook-2026-05' },
    ]);
  });

  it('offers no plan without a source bundle to plan from', () => {
    render(<ActionsTab entry={{ ...entry(), source: undefined }} />);
    expect(screen.getByRole('button', { name: 'Plan replace' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Plan forced replace' })).toHaveProperty('disabled', true);
    expect(screen.getByText(/configures no source for this destination: choose one above/)).toBeTruthy();
  });
});
