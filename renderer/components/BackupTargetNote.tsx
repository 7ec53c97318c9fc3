// Where the next apply's backup of a destination goes (listBackups' `target`): the folder, and rename
// or copy, or plainly that backups are off and that what the apply removes is then gone for good.
// Shown beside every confirmation of an apply that deletes or overwrites (a replace, a forced replace,
// a discard of staging).

import type { BackupTargetInfo } from '../../shared/backupSchema';
import { useBackups } from '../hooks/api';
import { backupTargetParts } from '../view/backupView';
import { Icon } from './Icon';

/** The target of one destination's backups, loaded once per render of its Actions tab (and after it changes on disk). */
export function useBackupTarget(destination: string): { target?: BackupTargetInfo; error?: string } {
  const list = useBackups(destination);
  if (list.state.status === 'ok') return list.state.value.target ? { target: list.state.value.target } : {};
  if (list.state.status === 'error') return { error: list.state.error.message };
  return {};
}

export function BackupTargetNote({ target, error }: { target?: BackupTargetInfo | undefined; error?: string | undefined }) {
  if (error !== undefined)
    return (
      <p className="backup-target muted" role="note" data-testid="backup-target">
        <Icon name="alert" /> Where the backup goes could not be read: {error}
      </p>
    );
  if (!target) return null;
  const parts = backupTargetParts(target);
  return (
    <p className={`backup-target ${target.enabled ? '' : 'backups-off'}`} role="note" data-testid="backup-target">
      <Icon name={target.enabled ? 'package' : 'alert'} /> {parts.before}
      {parts.folder !== undefined && <code>{parts.folder}</code>}
      {parts.after}
    </p>
  );
}
