// Going from a result or the history to a backup: the restore dialog opened on it, or the
// destination's Backups tab shown on it.

import { selectOnly } from '../view/multiSelection';
import { selectionPatch } from './selectionActions';
import { store } from './store';

/** Opens the restore dialog on a backup of a destination: "Restore this backup", and Undo in a result or the history. */
export function openRestore(destination: string, backupId: string): void {
  store.set({ restoreRequest: { destination, backupId } });
}

export function closeRestore(): void {
  store.set({ restoreRequest: undefined });
}

/** A history entry's link to its backup: selects the destination and opens its Backups tab on that backup. */
export function showBackup(destination: string, backupId: string): void {
  store.set((state) => ({
    ...selectionPatch(selectOnly(destination)),
    backupFocus: { destination, backupId, at: (state.backupFocus?.at ?? 0) + 1 },
  }));
}
