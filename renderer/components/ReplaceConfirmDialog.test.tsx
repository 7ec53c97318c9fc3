// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { samplePlan } from '../testing/samplePlan';
import { ReplaceConfirmDialog } from './ReplaceConfirmDialog';

afterEach(cleanup);

function changedPlan() {
  const plan = samplePlan({ extraDeletes: 2 });
  return {
    ...plan,
    extras: ['notes.txt', 'keep/me.txt'],
    deletes: plan.deletes.map((entry) => (entry.path === 'page-1.html' ? { ...entry, changed: 'hash_mismatch' as const } : entry)),
    summary: { ...plan.summary, changedCount: 1 },
  };
}

describe('ReplaceConfirmDialog', () => {
  it('names the totals, the extra files it keeps and the edits it loses, and lists every path', () => {
    render(
      <ReplaceConfirmDialog
        destinationId="legacy-site"
        confirmation="explicit"
        confirmText="legacy-site"
        plan={changedPlan()}
        onCancel={vi.fn()}
        onConfirm={vi.fn()}
      />,
    );
    const counts = screen.getByTestId('replace-confirm-counts').textContent;
    expect(counts).toContain('Replace: create 2 files, delete 3 files (the state file among them)');
    expect(counts).toContain('keep 2 files');
    expect(counts).toContain('extra files are kept, untouched.');
    expect(screen.getByTestId('replace-confirm-changed').textContent).toContain('1 recorded output was changed on disk since published');
    const rows = [...document.querySelectorAll('.plan-list li')].map(
      (item) => item.getAttribute('data-kind') + ' ' + item.querySelector('.path')?.textContent,
    );
    expect(rows).toEqual([
      'delete .distributor.json',
      'create index.html',
      'keep keep/me.txt',
      'keep notes.txt',
      'delete page-1.html',
      'delete page-2.html',
      'create style.css',
    ]);
  });

  it('confirms with one click on the button that names the counts, and Enter does the same', async () => {
    const onConfirm = vi.fn();
    const user = userEvent.setup();
    render(
      <ReplaceConfirmDialog
        destinationId="legacy-site"
        confirmation="explicit"
        confirmText="legacy-site"
        plan={samplePlan()}
        onCancel={vi.fn()}
        onConfirm={onConfirm}
      />,
    );
    const confirm = screen.getByRole('button', { name: 'Replace: create 2 files, delete 3 files (the state file among them)' });
    expect(document.activeElement).toBe(confirm);
    await user.keyboard('{Enter}');
    await user.click(confirm);
    expect(onConfirm).toHaveBeenCalledTimes(2);
    expect(onConfirm).toHaveBeenCalledWith({ confirmed: true });
  });

  it('asks for the destination id typed when the replace keeps no backup, and sends it', async () => {
    const onConfirm = vi.fn();
    const user = userEvent.setup();
    render(
      <ReplaceConfirmDialog
        destinationId="legacy-site"
        confirmation="typed_id"
        confirmText="legacy-site"
        plan={samplePlan()}
        backup={{ enabled: false }}
        onCancel={vi.fn()}
        onConfirm={onConfirm}
      />,
    );
    expect(screen.getByRole('alertdialog').textContent).toContain('No backup is kept: it cannot be undone.');
    // Cancel is the default button of a confirmation that cannot be undone.
    expect(document.activeElement?.textContent).toBe('Cancel');
    const confirm = screen.getByRole('button', { name: /^Replace: create 2 files/ });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText(/to confirm/), 'legacy-sit{Enter}');
    expect(onConfirm).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText(/to confirm/), 'e');
    await user.click(confirm);
    expect(onConfirm).toHaveBeenCalledWith({ confirm: 'legacy-site', confirmed: true });
  });

  it('does not confirm when Enter is pressed in the filter', async () => {
    const onConfirm = vi.fn();
    const user = userEvent.setup();
    render(
      <ReplaceConfirmDialog
        destinationId="legacy-site"
        confirmation="explicit"
        confirmText="legacy-site"
        plan={samplePlan()}
        onCancel={vi.fn()}
        onConfirm={onConfirm}
      />,
    );
    await user.type(screen.getByLabelText('Filter paths'), 'page{Enter}');
    expect(onConfirm).not.toHaveBeenCalled();
    expect(document.querySelectorAll('.plan-list li')).toHaveLength(2);
  });

  it('names the workspace host in its title and its words when the destination is on one', () => {
    render(
      <ReplaceConfirmDialog
        destinationId="legacy-site"
        confirmation="explicit"
        confirmText="legacy-site"
        plan={samplePlan()}
        host="web-1 (ssh://ops@web-1)"
        onCancel={vi.fn()}
        onConfirm={vi.fn()}
      />,
    );
    expect(screen.getByRole('dialog', { name: 'Replace legacy-site on host web-1?' })).toBeTruthy();
    expect(screen.getByTestId('replace-confirm-host').textContent).toBe('on host web-1 (ssh://ops@web-1)');
  });

  it('is cancelled by Cancel or Esc, confirming nothing', async () => {
    const onCancel = vi.fn();
    const onConfirm = vi.fn();
    const user = userEvent.setup();
    render(
      <ReplaceConfirmDialog
        destinationId="legacy-site"
        confirmation="explicit"
        confirmText="legacy-site"
        plan={samplePlan()}
        onCancel={onCancel}
        onConfirm={onConfirm}
      />,
    );
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
