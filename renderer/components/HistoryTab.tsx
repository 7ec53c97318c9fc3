// A destination's History tab: every replace applied, refused or failed on it, newest first, from the
// workspace's journal (shared by the app, the browser host and the CLI). Reloads after it changes.

import { useMemo } from 'react';
import type { DestinationEntry } from '../../shared/api';
import { useHistory } from '../hooks/api';
import { historyRows } from '../view/historyRows';
import { Callout } from './Callout';
import { HistoryTable } from './HistoryTable';

export function HistoryTab({ entry }: { entry: DestinationEntry }) {
  const history = useHistory(entry.id);
  const state = history.state;
  const rows = useMemo(() => (state.status === 'ok' ? historyRows(state.value.records) : []), [state]);
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
      {issues.length > 0 && (
        <Callout tone="warning" title={`${issues.length} line(s) of the journal could not be read`}>
          <ul>
            {issues.slice(0, 5).map((issue) => (
              <li key={issue.line}>
                line {issue.line}: {issue.message}
              </li>
            ))}
          </ul>
        </Callout>
      )}
      {rows.length === 0 ? (
        <p className="muted">No replace has been applied to {entry.id} yet. Each one is recorded here, done, refused or failed.</p>
      ) : (
        <HistoryTable rows={rows} caption={`History of ${entry.id}`} withDestination={false} />
      )}
      <p className="hint">
        Journal: <code>{file}</code>
      </p>
    </div>
  );
}
