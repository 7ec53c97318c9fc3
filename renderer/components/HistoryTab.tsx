// A destination's History tab: every apply (replace, forced replace, repair, discard staging, restore)
// applied, refused or failed on it, newest first, from the workspace's journal (shared by the app,
// the browser host and the CLI), each linked to the backup it kept, with Undo while that backup can
// still be restored. Reloads after it changes.

import { useMemo } from 'react';
import type { DestinationEntry } from '../../shared/api';
import { useBackups } from '../hooks/api';
import { useHistoryPages } from '../hooks/useHistoryPages';
import { backupsByKey } from '../view/backupView';
import { historyRows } from '../view/historyRows';
import { Callout } from './Callout';
import { HistoryTable } from './HistoryTable';
import { JournalIssues } from './JournalIssues';
import { LoadOlderHistory } from './LoadOlderHistory';

export function HistoryTab({
  entry,
  onShowBackup,
}: {
  entry: DestinationEntry;
  onShowBackup?: (destination: string, backupId: string) => void;
}) {
  const pages = useHistoryPages(entry.id);
  const { state, records } = pages;
  const rows = useMemo(() => historyRows(records), [records]);
  const list = useBackups(entry.id).state;
  const backups = useMemo(() => (list.status === 'ok' ? backupsByKey(list.value.backups) : undefined), [list]);
  if (state.status === 'error')
    return (
      <Callout tone="danger" title="Could not read the history" role="alert">
        <p>{state.error.message}</p>
      </Callout>
    );
  if (state.status !== 'ok') return <p role="status">Loading the history of {entry.id}…</p>;
  const { file, issues } = state.value;
  return (
    <div>
      <JournalIssues issues={issues} />
      {rows.length === 0 ? (
        <p className="muted">No replace has been applied to {entry.id} yet. Each apply is recorded here, done, refused or failed.</p>
      ) : (
        <HistoryTable
          rows={rows}
          caption={`History of ${entry.id}`}
          withDestination={false}
          backups={backups}
          onShowBackup={onShowBackup}
        />
      )}
      <LoadOlderHistory pages={pages} />
      <p className="hint">
        Journal: <code>{file}</code>
      </p>
    </div>
  );
}
