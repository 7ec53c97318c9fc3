import { describe, expect, it } from 'vitest';
import { sampleBackup } from '../testing/sampleBackups';
import {
  backupsByKey,
  backupTargetSentence,
  historyBackupLink,
  pruneCandidates,
  restoreRefusalCode,
  restoreRefusalWords,
} from './backupView';

describe('backup words', () => {
  it('says where the backup goes and how, or that backups are off and the apply cannot be undone', () => {
    expect(backupTargetSentence({ enabled: true, folder: '/w/.inspector-backups/a', method: 'rename' })).toContain(
      'kept as a backup in /w/.inspector-backups/a/<UTC time>/, moved there by rename',
    );
    expect(backupTargetSentence({ enabled: true, folder: '/mnt/b/a', method: 'copy' })).toContain(
      'copied there and verified by sha256 before anything is deleted',
    );
    expect(backupTargetSentence({ enabled: false })).toContain('gone for good, and it cannot be undone');
  });

  it('prunes the readable backups after the newest keep, and lists unreadable ones only as may go', () => {
    const backups = [
      sampleBackup('2026-12-04T000000.000Z'),
      sampleBackup('2026-12-03T000000.000Z', { problem: 'backup.json is missing' }),
      sampleBackup('2026-12-02T000000.000Z'),
      sampleBackup('2026-12-01T000000.000Z'),
    ];
    const { goes, mayGo } = pruneCandidates(backups, 2);
    expect(goes.map((backup) => backup.id)).toEqual(['2026-12-01T000000.000Z']);
    expect(mayGo.map((backup) => backup.id)).toEqual(['2026-12-03T000000.000Z']);
    expect(pruneCandidates(backups, 5).goes).toEqual([]);
  });

  it('links a history entry to the backup of its own destination only: an id is unique per destination', () => {
    const backups = backupsByKey([sampleBackup('2026-12-04T000000.000Z')]);
    expect(historyBackupLink({ action: 'force', backupId: '2026-12-04T000000.000Z', destination: 'legacy-site' }, backups)).toEqual({
      kind: 'kept',
      id: '2026-12-04T000000.000Z',
      restorable: true,
    });
    expect(historyBackupLink({ action: 'force', backupId: '2026-12-04T000000.000Z', destination: 'other' }, backups).kind).toBe('gone');
    expect(historyBackupLink({ action: 'restore', backupId: '2026-12-04T000000.000Z', destination: 'legacy-site' }, backups).kind).toBe(
      'restored_from',
    );
    expect(historyBackupLink({ action: 'replace', destination: 'legacy-site' }, backups).kind).toBe('none');
  });

  it("reads a restore's refusal from the plan's details, else from the error's own code", () => {
    expect(restoreRefusalCode({ code: 'refused', details: { refusal: { code: 'target_exists' } } })).toBe('target_exists');
    expect(restoreRefusalCode({ code: 'stale_plan' })).toBe('stale_plan');
    expect(restoreRefusalWords({ code: 'stale_plan' })?.next).toContain('Plan the restore again');
    expect(restoreRefusalWords({ code: 'io_error' })).toBeUndefined();
  });
});
