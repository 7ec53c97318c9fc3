// The workspace's History view: every replace applied, refused or failed on any of its destinations,
// newest first, filtered by action and outcome; each entry links to its backup (its destination's
// Backups tab) and offers Undo while that backup can still be restored. Opened from the toolbar; reads the journal on open
// and on Reload.

import { useId, useMemo, useState } from 'react';
import { useBackups } from '../hooks/api';
import { useHistoryPages } from '../hooks/useHistoryPages';
import { showBackup } from '../state/actions';
import { backupsByKey } from '../view/backupView';
import { filterHistoryRows, historyActions, historyRows, type HistoryOutcome } from '../view/historyRows';
import { plural } from '../view/format';
import { Callout } from './Callout';
import { Dialog } from './Dialog';
import { HistoryTable } from './HistoryTable';
import { JournalIssues } from './JournalIssues';
import { LoadOlderHistory } from './LoadOlderHistory';
import { Icon } from './Icon';

const OUTCOMES: HistoryOutcome[] = ['applied', 'refused', 'failed'];

export function HistoryDialog({ onClose }: { onClose: () => void }) {
  const labelId = useId();
  const [reload, setReload] = useState(0);
  const [action, setAction] = useState('');
  const [outcome, setOutcome] = useState<HistoryOutcome | ''>('');
  const pages = useHistoryPages(undefined, reload);
  const { state, records } = pages;
  const list = useBackups(undefined, reload).state;
  const backups = useMemo(() => (list.status === 'ok' ? backupsByKey(list.value.backups) : undefined), [list]);
  const rows = useMemo(() => historyRows(records), [records]);
  const shown = useMemo(
    () => filterHistoryRows(rows, { action: action || undefined, outcome: outcome || undefined }),
    [rows, action, outcome],
  );

  return (
    <Dialog title="Workspace history" labelId={labelId} onClose={onClose}>
      <div className="history-dialog">
        <div className="button-row history-filters">
          <label>
            Action{' '}
            <select value={action} onChange={(event) => setAction(event.target.value)} data-autofocus>
              <option value="">all</option>
              {historyActions(rows).map((choice) => (
                <option key={choice.action} value={choice.action}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Result{' '}
            <select value={outcome} onChange={(event) => setOutcome(event.target.value as HistoryOutcome | '')}>
              <option value="">all</option>
              {OUTCOMES.map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="button" onClick={() => setReload((count) => count + 1)}>
            <Icon name="refresh" /> Reload
          </button>
        </div>
        {state.status === 'error' && (
          <Callout tone="danger" title="Could not read the history" role="alert">
            <p>{state.error.message}</p>
          </Callout>
        )}
        {state.status === 'loading' && <p role="status">Reading the journal…</p>}
        {state.status === 'ok' && (
          <>
            <JournalIssues issues={state.value.issues} />
            <p role="status" className="muted">
              {shown.length === rows.length ? plural(rows.length, 'record') : `${shown.length} of ${plural(rows.length, 'record')}`} in{' '}
              <code>{state.value.file}</code>
            </p>
            {shown.length > 0 && (
              <HistoryTable
                rows={shown}
                caption="Workspace history"
                withDestination
                backups={backups}
                onShowBackup={(destination, backupId) => {
                  showBackup(destination, backupId);
                  onClose();
                }}
              />
            )}
            <LoadOlderHistory pages={pages} />
          </>
        )}
        <div className="button-row">
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </Dialog>
  );
}
