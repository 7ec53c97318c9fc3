// Backups and a restore plan as the engine sends them, for the renderer's component tests: plain data
// that passes backupSummarySchema and restorePlanSchema. Test support only; nothing in the app imports it.

import type { BackupSummary, RestorePlan } from '../../shared/backupSchema';

const SHA = `sha256:${'c'.repeat(64)}`;
export const BACKUPS_FOLDER = '/w/.inspector-backups/legacy-site';

export function sampleBackup(id: string, overrides: Partial<BackupSummary> = {}): BackupSummary {
  return {
    id,
    folder: `${BACKUPS_FOLDER}/${id}`,
    destination: { id: 'legacy-site', path: '/w/destinations/legacy-site' },
    action: 'force',
    createdAt: '2026-12-04T06:20:00.123Z',
    method: 'rename',
    sizeBytes: 3072,
    entryCount: 4,
    outcome: 'applied',
    ...overrides,
  };
}

export function sampleRestorePlan(backupId: string): RestorePlan {
  return {
    planVersion: 1,
    backupId,
    backupFolder: `${BACKUPS_FOLDER}/${backupId}`,
    destinationPath: '/w/destinations/legacy-site',
    destinationRealPath: '/w/destinations/legacy-site',
    method: 'rename',
    removes: [
      { path: '.distributor.json', type: 'file', size: 900 },
      { path: 'index.html', type: 'file', size: 171 },
      { path: 'pages', type: 'directory', size: 0 },
    ],
    removeStaging: [],
    puts: [
      { path: 'notes.txt', type: 'file', size: 21, mtimeNs: '1', ino: '2', kept: true },
      { path: 'pages', type: 'directory', size: 400, mtimeNs: '1', ino: '3', kept: true },
      { path: '.distributor.json', type: 'file', size: 850, mtimeNs: '1', ino: '4', sha256: SHA, kept: true },
    ],
    alreadyInPlace: [],
    notKept: [],
    fingerprint: { stateSha256: SHA, wholeTree: true, entries: [] },
    plannedAt: '2026-12-04T07:00:00Z',
    summary: { removeCount: 3, putCount: 3, putBytes: 1271 },
  };
}
