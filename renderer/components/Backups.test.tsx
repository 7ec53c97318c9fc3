// @vitest-environment happy-dom
// Backups and undo in the renderer, over a stand-in for the preload bridge that answers listBackups,
// planRestore, pruneBackups and history with schema-valid data and records every call: the normal
// replace's confirm says where its backup goes; the Backups tab lists newest first and opens the
// restore dialog, which shows what it removes and puts back and applies by plan id only with the
// typed destination id; refusals in words; prune names what goes; the history links to backups and
// offers Undo only where the backup can still be restored; an apply's result names its backup.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiError, DestinationEntry } from '../../shared/api';
import type { BackupSummary } from '../../shared/backupSchema';
import { HISTORY_FORMAT, type HistoryRecord } from '../../shared/historySchema';
import type { ApplyResult } from '../../shared/plan';
import { initialState, store } from '../state/store';
import { installFakeBridge } from '../testing/fakeBridge';
import { BACKUPS_FOLDER, sampleBackup, sampleRestorePlan } from '../testing/sampleBackups';
import { samplePlan } from '../testing/samplePlan';
import { ActionsTab } from './ActionsTab';
import { ApplyOutcomeView } from './ApplyOutcome';
import { BackupsTab } from './BackupsTab';
import { HistoryTab } from './HistoryTab';
import { RestoreHost } from './RestoreBackupDialog';

let backups: BackupSummary[] = [];
let enabled = true;
let keep = 5;
let restoreRefusal: ApiError | undefined;
let records: HistoryRecord[] = [];
let pageSize = 200;
/** When set, applyPlan starts job j1 and the job ends with this ApplyResult (as the engine's result event). */
let applyResult: ApplyResult | undefined;

const { calls, emit } = installFakeBridge((method, request) => {
  if (method === 'listBackups')
    return {
      ok: true,
      value: enabled
        ? {
            settings: { enabled: true, folder: '/w/.inspector-backups', keep },
            backups,
            target: { enabled: true, folder: BACKUPS_FOLDER, method: 'rename' },
          }
        : { settings: { enabled: false }, backups: [], target: { enabled: false } },
    };
  if (method === 'planRestore') {
    if (restoreRefusal) return { ok: false, error: restoreRefusal };
    const { backup } = request as { backup: string };
    return {
      ok: true,
      value: { planId: 'plan-restore', plan: sampleRestorePlan(backup), confirmText: 'legacy-site', confirmation: 'typed_id' },
    };
  }
  if (method === 'pruneBackups') return { ok: true, value: { removed: backups.slice(keep), kept: keep } };
  if (method === 'history') {
    // Paged like the session: the newest `pageSize` first, then older ones by the cursor (the index where they end).
    const before = Number((request as { cursor?: string }).cursor ?? records.length);
    const from = Math.max(0, before - pageSize);
    const page = { file: '/w/.inspector-history.jsonl', records: records.slice(from, before), issues: [], truncated: false };
    return { ok: true, value: from > 0 ? { ...page, nextCursor: String(from) } : page };
  }
  if (method === 'planReplace') return { ok: true, value: { planId: 'plan-replace', confirmation: 'explicit', plan: samplePlan({}) } };
  if (method === 'applyPlan' && applyResult) {
    const result = applyResult;
    setTimeout(() => emit('result', { job: 'j1', method: 'applyPlan', result }), 10);
    return { ok: true, value: { job: 'j1' } };
  }
  // Anything else (the apply itself) is refused: these tests stop at what the views asked for.
  return undefined;
});

const entry: DestinationEntry = {
  id: 'legacy-site',
  path: '/w/destinations/legacy-site',
  source: '/w/sources/handbook-2026-06',
  replacePolicy: 'allow',
};
const called = (method: string) => calls.filter((call) => call.method === method).map((call) => call.request);

function record(overrides: Partial<HistoryRecord>): HistoryRecord {
  return {
    format: HISTORY_FORMAT,
    at: '2026-12-04T06:20:01Z',
    user: 'ops',
    host: 'desk',
    transport: 'http',
    destination: { id: 'legacy-site', path: entry.path },
    action: 'force',
    sourcePath: '/w/sources/handbook-2026-06',
    counts: { delete: 4, write: 2 },
    result: { outcome: 'applied', changed: true, stateWritten: true },
    durationMs: 5,
    ...overrides,
  };
}

beforeEach(() => store.set(initialState()));
afterEach(() => {
  cleanup();
  backups = [];
  enabled = true;
  keep = 5;
  restoreRefusal = undefined;
  records = [];
  pageSize = 200;
  applyResult = undefined;
});

describe('where the backup goes', () => {
  it('is said in the normal replace confirm: the folder and rename', async () => {
    const user = userEvent.setup();
    render(<ActionsTab entry={entry} />);
    await user.click(screen.getByRole('button', { name: 'Plan replace' }));
    await user.click(await screen.findByRole('button', { name: /^Replace: / }));
    const dialog = await screen.findByRole('dialog', { name: 'Replace legacy-site?' });
    expect(called('listBackups')).toEqual([{ destination: 'legacy-site' }]);
    expect(within(dialog).getByTestId('backup-target').textContent).toContain(
      `kept as a backup in ${BACKUPS_FOLDER}/<UTC time>/, moved there by rename`,
    );
  });

  it('says plainly that backups are off and that a forced replace then cannot be undone', async () => {
    enabled = false;
    render(<ActionsTab entry={entry} />);
    expect(await screen.findByText(/Backups are off for this workspace: it cannot be undone\./)).toBeTruthy();
  });
});

describe('the Backups tab', () => {
  it('lists the backups newest first with the apply that made each, its outcome, size and method', async () => {
    backups = [
      sampleBackup('2026-12-04T062000.123Z', { createdAt: '2026-12-04T06:20:00.123Z' }),
      sampleBackup('2026-12-03T101500.000Z', { action: 'repair', outcome: 'failed', method: 'copy', sizeBytes: 100, entryCount: 1 }),
      sampleBackup('2026-12-02T090000.000Z', { restoredAt: '2026-12-02T10:00:00Z' }),
    ];
    render(<BackupsTab entry={entry} />);
    const rows = (await screen.findAllByRole('row')).slice(1);
    expect(rows.map((row) => row.getAttribute('data-backup-id'))).toEqual(backups.map((backup) => backup.id));
    expect(rows[0]!.textContent).toContain('forced replace');
    expect(rows[0]!.textContent).toContain('applied');
    expect(rows[0]!.textContent).toContain('3.0 KiB · 4 entries');
    expect(rows[0]!.textContent).toContain('moved (same file system)');
    expect(rows[1]!.textContent).toContain('repair');
    expect(rows[1]!.textContent).toContain('failed');
    expect(rows[1]!.textContent).toContain('copied and verified (sha256)');
    // A restored backup is back in the destination: it offers no second restore.
    expect(within(rows[2]!).queryByRole('button', { name: /Restore this backup/ })).toBeNull();
    expect(rows[2]!.textContent).toContain('already restored');
    expect(screen.getByTestId('backups-where').textContent).toContain(BACKUPS_FOLDER);
  });

  it('says that backups are off and what that means, with no list', async () => {
    enabled = false;
    render(<BackupsTab entry={entry} />);
    expect((await screen.findByTestId('backups-off')).textContent).toContain('nothing can be undone');
  });

  it('restores a backup only after the destination id is typed, applying by plan id with the typed id', async () => {
    backups = [sampleBackup('2026-12-04T062000.123Z')];
    const user = userEvent.setup();
    render(
      <>
        <BackupsTab entry={entry} />
        <RestoreHost />
      </>,
    );
    await user.click(await screen.findByRole('button', { name: /Restore this backup/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Restore legacy-site from backup 2026-12-04T062000.123Z?' });
    expect(called('planRestore')).toEqual([{ destination: 'legacy-site', backup: '2026-12-04T062000.123Z' }]);
    const list = await within(dialog).findByRole('list', { name: 'Every path the restore removes and puts back' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'remove.distributor.jsonthe state the apply wrote',
      'removeindex.html171 B',
      'removepages/folder left empty',
      'put backnotes.txt21 B',
      'put backpages/folder, 400 B below it',
      'put back.distributor.jsonthe old state, last',
    ]);
    const apply = within(dialog).getByRole('button', { name: /^Restore: / });
    expect(apply).toHaveProperty('disabled', true);
    // Cancel has the focus: a stray Enter cancels.
    expect(document.activeElement?.textContent).toBe('Cancel');
    await user.type(within(dialog).getByLabelText(/Type legacy-site to confirm/), 'legacy-sit');
    expect(apply).toHaveProperty('disabled', true);
    await user.type(within(dialog).getByLabelText(/Type legacy-site to confirm/), 'e');
    await user.click(apply);
    expect(called('applyPlan')).toEqual([{ planId: 'plan-restore', confirm: 'legacy-site', confirmed: true }]);
    // The bridge refuses the job: the dialog says it did not run.
    expect((await within(dialog).findByRole('alert')).textContent).toContain('The restore did not run');
  });

  it('says a restore stopped at apply (target_exists) in words, with what it changed and the way to plan again', async () => {
    backups = [sampleBackup('2026-12-04T062000.123Z')];
    applyResult = {
      ok: false,
      mode: 'restore',
      destinationPath: entry.path,
      error: { code: 'target_exists', message: '"notes.txt" is in the destination now, where the backup puts its own' },
      changed: false,
      oldTouched: false,
      stateWritten: false,
      stagingLeft: false,
      deleted: [],
      written: [],
      mutations: 0,
      durationMs: 3,
      backup: { id: '2026-12-04T062000.123Z', folder: `${BACKUPS_FOLDER}/2026-12-04T062000.123Z`, method: 'rename' },
    };
    const user = userEvent.setup();
    render(
      <>
        <BackupsTab entry={entry} />
        <RestoreHost />
      </>,
    );
    await user.click(await screen.findByRole('button', { name: /Restore this backup/ }));
    const dialog = await screen.findByRole('alertdialog');
    await user.type(await within(dialog).findByLabelText(/Type legacy-site to confirm/), 'legacy-site');
    await user.click(within(dialog).getByRole('button', { name: /^Restore: / }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('The restore did not complete');
    expect(alert.textContent).toContain('"notes.txt" is in the destination now');
    expect(alert.textContent).toContain('A restore never overwrites');
    expect(within(dialog).queryByTestId('backup-kept')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Plan the restore again' }));
    expect(called('planRestore')).toHaveLength(2);
    expect(await within(dialog).findByTestId('restore-plan')).toBeTruthy();
  });

  it.each([
    ['destination_changed', '"added.txt" was added after the forced replace', 'move it out of the destination'],
    ['target_exists', '"notes.txt" is in the destination now', 'A restore never overwrites'],
    ['backup_changed', 'the backup copy of "a.html" no longer has its bytes', 'Restore another backup of this destination'],
  ])('says a %s refusal in words with what to do', async (code, message, next) => {
    backups = [sampleBackup('2026-12-04T062000.123Z')];
    restoreRefusal = { code: 'refused', message, details: { refusal: { code, message } } };
    const user = userEvent.setup();
    render(
      <>
        <BackupsTab entry={entry} />
        <RestoreHost />
      </>,
    );
    await user.click(await screen.findByRole('button', { name: /Restore this backup/ }));
    const alert = await within(await screen.findByRole('alertdialog')).findByRole('alert');
    expect(alert.textContent).toContain(message);
    expect(alert.textContent).toContain(next);
    expect(screen.queryByLabelText(/Type legacy-site to confirm/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Plan the restore again' })).toBeTruthy();
  });

  it('prunes only after a confirmation that names every backup it removes', async () => {
    keep = 1;
    backups = [
      sampleBackup('2026-12-04T062000.123Z'),
      sampleBackup('2026-12-03T101500.000Z', { action: 'repair' }),
      sampleBackup('2026-12-02T090000.000Z', { action: 'replace', sizeBytes: 2048 }),
    ];
    const user = userEvent.setup();
    render(<BackupsTab entry={entry} />);
    await user.click(await screen.findByRole('button', { name: /Prune to the newest 1/ }));
    const dialog = screen.getByRole('alertdialog', { name: 'Prune the backups of legacy-site?' });
    expect(
      within(within(dialog).getByRole('list', { name: 'Every backup the prune removes' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['delete2026-12-03T101500.000Zrepair, 3.0 KiB', 'delete2026-12-02T090000.000Zreplace, 2.0 KiB']);
    expect(called('pruneBackups')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete 2 backups' }));
    expect(called('pruneBackups')).toEqual([{ destination: 'legacy-site' }]);
    expect((await screen.findByTestId('prune-result')).textContent).toBe(
      'Removed 2 backups (2026-12-03T101500.000Z, 2026-12-02T090000.000Z); kept 1.',
    );
  });
});

describe('the history and the result link to their backup', () => {
  it('offers Undo on an entry whose backup can still be restored, and says which are restored or pruned', async () => {
    backups = [sampleBackup('2026-12-04T062000.123Z'), sampleBackup('2026-12-02T090000.000Z', { restoredAt: '2026-12-02T10:00:00Z' })];
    records = [
      record({ at: '2026-12-01T00:00:00Z', backupId: '2026-12-01T000000.000Z' }),
      record({ at: '2026-12-02T09:00:00Z', backupId: '2026-12-02T090000.000Z' }),
      record({ at: '2026-12-02T10:00:00Z', action: 'restore', backupId: '2026-12-02T090000.000Z' }),
      record({ at: '2026-12-04T06:20:00Z', backupId: '2026-12-04T062000.123Z' }),
    ];
    const user = userEvent.setup();
    const shown: [string, string][] = [];
    render(
      <>
        <HistoryTab entry={entry} onShowBackup={(destination, id) => shown.push([destination, id])} />
        <RestoreHost />
      </>,
    );
    await screen.findByText('(restored)');
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => row.lastElementChild?.textContent)).toEqual([
      'backup 2026-12-04T062000.123Z Undo',
      'from backup 2026-12-02T090000.000Z',
      'backup 2026-12-02T090000.000Z (restored)',
      'backup 2026-12-01T000000.000Z: pruned or removed',
    ]);
    await user.click(within(rows[0]!).getByRole('button', { name: '2026-12-04T062000.123Z' }));
    expect(shown).toEqual([['legacy-site', '2026-12-04T062000.123Z']]);
    await user.click(within(rows[0]!).getByRole('button', { name: /^Undo the forced replace of legacy-site/ }));
    expect(await screen.findByRole('alertdialog', { name: 'Restore legacy-site from backup 2026-12-04T062000.123Z?' })).toBeTruthy();
  });

  it('shows the newest page of the history and loads older records only when asked', async () => {
    records = [1, 2, 3, 4, 5].map((day) => record({ at: `2026-12-0${day}T00:00:00Z`, user: `ops${day}` }));
    pageSize = 2;
    const user = userEvent.setup();
    const users = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map((row) => /ops[0-9]/.exec(row.textContent ?? '')?.[0]);
    render(<HistoryTab entry={entry} />);
    await waitFor(() => expect(users()).toEqual(['ops5', 'ops4']));
    await user.click(screen.getByRole('button', { name: 'Load older records' }));
    await waitFor(() => expect(users()).toEqual(['ops5', 'ops4', 'ops3', 'ops2']));
    await user.click(screen.getByRole('button', { name: 'Load older records' }));
    await waitFor(() => expect(users()).toEqual(['ops5', 'ops4', 'ops3', 'ops2', 'ops1']));
    expect(screen.queryByRole('button', { name: 'Load older records' })).toBeNull();
    expect(called('history').slice(-2)).toEqual([
      { destination: 'legacy-site', cursor: '3' },
      { destination: 'legacy-site', cursor: '1' },
    ]);
  });

  it('after an apply, names the backup kept and its folder, with Undo opening the restore', async () => {
    const result: ApplyResult = {
      ok: true,
      mode: 'force',
      destinationPath: entry.path,
      changed: true,
      oldTouched: true,
      stateWritten: true,
      stagingLeft: false,
      deleted: ['.distributor.json', 'notes.txt'],
      written: ['index.html'],
      mutations: 5,
      durationMs: 12,
      backup: { id: '2026-12-04T062000.123Z', folder: `${BACKUPS_FOLDER}/2026-12-04T062000.123Z`, method: 'rename' },
    };
    const user = userEvent.setup();
    render(<ApplyOutcomeView outcome={{ kind: 'result', result }} onPlanAgain={() => {}} destination="legacy-site" />);
    expect(screen.getByTestId('backup-kept').textContent?.trim()).toBe(
      `Backup 2026-12-04T062000.123Z kept in ${BACKUPS_FOLDER}/2026-12-04T062000.123Z — Undo`,
    );
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(store.get().restoreRequest).toEqual({ destination: 'legacy-site', backupId: '2026-12-04T062000.123Z' });
  });
});
