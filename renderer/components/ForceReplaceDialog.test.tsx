// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BackupTargetInfo } from '../../shared/backupSchema';
import { samplePlan } from '../testing/samplePlan';
import { ForceReplaceDialog } from './ForceReplaceDialog';

afterEach(cleanup);

function renderDialog(extraDeletes = 2, nestedDestinations: string[] = [], backup: BackupTargetInfo = { enabled: false }) {
  const onCancel = vi.fn();
  const onConfirm = vi.fn();
  const plan = { ...samplePlan({ mode: 'force', decision: 'unmanaged', extraDeletes }), nestedDestinations };
  render(<ForceReplaceDialog plan={plan} confirmText="legacy-site" backup={backup} onCancel={onCancel} onConfirm={onConfirm} />);
  const dialog = screen.getByRole('alertdialog');
  const input = screen.getByLabelText(/Type legacy-site to confirm/);
  const confirm = screen.getByRole('button', { name: /^Forced replace: / });
  return { onCancel, onConfirm, dialog, input, confirm, user: userEvent.setup() };
}

describe('ForceReplaceDialog', () => {
  it('is an alertdialog named for the destination and described by what it deletes, which cannot be undone when backups are off', () => {
    const { dialog } = renderDialog();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(screen.getByRole('alertdialog', { name: 'Force replace legacy-site?' })).toBe(dialog);
    const description = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toContain('/w/destinations/legacy-site');
    expect(description?.textContent).toContain('It cannot be undone.');
    expect(screen.getByTestId('backup-target').textContent).toContain(
      'Backups are off for this workspace (its file says "backups": "off"): what this apply deletes or overwrites is gone for good',
    );
  });

  it('says where the backup of what it deletes goes, and how, when backups are on', () => {
    const { dialog } = renderDialog(2, [], { enabled: true, folder: '/w/.inspector-backups/legacy-site', method: 'rename' });
    const description = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toContain('Everything it deletes is kept as a backup first, so it can be undone.');
    expect(description?.textContent).not.toContain('It cannot be undone.');
    expect(screen.getByTestId('backup-target').textContent).toContain(
      'kept as a backup in /w/.inspector-backups/legacy-site/<UTC time>/, moved there by rename (the same file system',
    );
  });

  it('says a backup on another file system is copied and verified before anything is deleted', () => {
    renderDialog(2, [], { enabled: true, folder: '/mnt/backups/legacy-site', method: 'copy' });
    expect(screen.getByTestId('backup-target').textContent).toContain('copied there and verified by sha256 before anything is deleted');
  });

  it('names the counts on its confirm button', () => {
    const { confirm } = renderDialog(4);
    expect(confirm.textContent).toBe('Forced replace: create 2 files, delete 5 files (the state file among them)');
  });

  it('lists every path of the plan, never "…and N more", and filters it by text and by kind', async () => {
    const { dialog, user } = renderDialog(9);
    const paths = () => [...dialog.querySelectorAll('.plan-list li .path')].map((item) => item.textContent);
    expect(paths()).toHaveLength(12);
    expect(dialog.textContent).not.toMatch(/and \d+ more/);
    await user.type(screen.getByLabelText('Filter paths'), 'page-1');
    expect(paths()).toEqual(['page-1.html']);
    expect(screen.getByTestId('plan-rows-shown').textContent).toContain('Showing 1 of 12 paths');
    await user.click(screen.getByRole('button', { name: 'Show all' }));
    await user.click(screen.getByTestId('plan-toggle-delete'));
    expect(screen.getByTestId('plan-toggle-delete').getAttribute('aria-pressed')).toBe('false');
    expect(paths()).toEqual(['index.html', 'style.css']);
  });

  it('keeps the confirm button disabled until the exact destination id is typed', async () => {
    const { input, confirm, user } = renderDialog();
    expect(confirm).toHaveProperty('disabled', true);
    for (const near of ['legacy-sit', 'Legacy-site', 'legacy-site ', ' legacy-site', 'legacy_site']) {
      await user.clear(input);
      await user.type(input, near);
      expect(confirm, JSON.stringify(near)).toHaveProperty('disabled', true);
    }
    await user.clear(input);
    await user.type(input, 'legacy-site');
    expect(confirm).toHaveProperty('disabled', false);
  });

  it('confirms with the typed id once it matches, by click or by Enter', async () => {
    const { input, confirm, onConfirm, user } = renderDialog();
    await user.type(input, 'legacy-site');
    await user.click(confirm);
    expect(onConfirm).toHaveBeenCalledWith('legacy-site', false);
    await user.type(input, '{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it('lists every nested managed destination and confirms only once they are ticked as going too', async () => {
    const { onConfirm, dialog, input, confirm, user } = renderDialog(2, ['old-docs', 'sites/inner']);
    expect(dialog.querySelector('[data-testid="nested-destinations"]')?.textContent).toContain('old-docs/');
    expect(dialog.querySelector('[data-testid="nested-destinations"]')?.textContent).toContain('sites/inner/');
    await user.type(input, 'legacy-site');
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByLabelText(/Delete the 2 nested managed destinations listed above too/));
    expect((confirm as HTMLButtonElement).disabled).toBe(false);
    await user.click(confirm);
    expect(onConfirm).toHaveBeenCalledWith('legacy-site', true);
  });

  it('does not confirm on Enter while the typed id does not match', async () => {
    const { input, onConfirm, user } = renderDialog();
    await user.type(input, 'legacy{Enter}');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('puts the focus on Cancel, so a stray Enter cancels instead of destroying', async () => {
    const { onCancel, onConfirm, user } = renderDialog();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    await user.keyboard('{Enter}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('closes on Esc without confirming, even with the id typed', async () => {
    const { input, onCancel, onConfirm, user } = renderDialog();
    await user.type(input, 'legacy-site');
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('closes on Cancel without confirming', async () => {
    const { onCancel, onConfirm, user } = renderDialog();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
