// A destination's Backups tab: what its applies kept of what they removed, newest first (when, the
// apply that made it and how it ended, size, rename or copy), where they are kept and how many; a
// "Restore this backup" per backup (the restore dialog: planned, confirmed by the typed id, applied
// with progress); and Prune to the newest `keep`, after a confirmation naming each backup it removes.
// Reloads after the destination changes on disk.

import { useId, useMemo, useState } from 'react';
import type { DestinationEntry } from '../../shared/api';
import type { BackupSummary } from '../../shared/backupSchema';
import { useBackups, usePruneBackups } from '../hooks/api';
import { openRestore } from '../state/actions';
import { backupRows, pruneCandidates } from '../view/backupView';
import { applyActionLabel } from '../view/historyRows';
import { formatAge, formatBytes, formatTimestamp, plural } from '../view/format';
import { Callout } from './Callout';
import { Dialog } from './Dialog';
import { Icon } from './Icon';

function PruneDialog({
  goes,
  mayGo,
  keep,
  destination,
  onDone,
  onCancel,
}: {
  goes: readonly BackupSummary[];
  mayGo: readonly BackupSummary[];
  keep: number;
  destination: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const labelId = useId();
  const prune = usePruneBackups();
  const running = prune.state.status === 'loading';
  const bytes = goes.reduce((sum, backup) => sum + backup.sizeBytes, 0);
  return (
    <Dialog
      title={`Prune the backups of ${destination}?`}
      labelId={labelId}
      role="alertdialog"
      destructive
      locked={running}
      onClose={onCancel}
    >
      {prune.state.status === 'ok' ? (
        <>
          <Callout tone="good" title="Pruned" role="status">
            <p data-testid="prune-result">
              {prune.state.value.removed.length === 0
                ? 'Nothing was removed: the list changed since it was read.'
                : `Removed ${plural(prune.state.value.removed.length, 'backup')} (${prune.state.value.removed.map((backup) => backup.id).join(', ')}); kept ${prune.state.value.kept}.`}
            </p>
          </Callout>
          <footer>
            <button type="button" className="button" onClick={onDone} data-autofocus>
              Close
            </button>
          </footer>
        </>
      ) : (
        <>
          <p>
            Keeps the newest {plural(keep, 'backup')} and deletes{' '}
            {goes.length > 0 ? `these ${goes.length} (${formatBytes(bytes)})` : 'none'} for good: their applies can no longer be undone.
          </p>
          <ul className="plan-list" aria-label="Every backup the prune removes" tabIndex={0} data-testid="prune-list">
            {goes.map((backup) => (
              <li key={backup.id} className="delete">
                <span className="op">delete</span>
                <span className="path">{backup.id}</span>
                <span className="detail">
                  {applyActionLabel(backup.action)}, {formatBytes(backup.sizeBytes)}
                </span>
              </li>
            ))}
            {mayGo.map((backup) => (
              <li key={backup.id} className="refused">
                <span className="op">unreadable</span>
                <span className="path">{backup.id}</span>
                <span className="detail">removed too once older than ten minutes (an apply killed while keeping it)</span>
              </li>
            ))}
          </ul>
          {prune.state.status === 'error' && (
            <Callout tone="danger" title="The prune failed" role="alert">
              <p>{prune.state.error.message}</p>
            </Callout>
          )}
          <footer>
            <button type="button" className="button" onClick={onCancel} disabled={running} data-autofocus>
              Cancel
            </button>
            <button type="button" className="button danger" disabled={running} onClick={() => void prune.run({ destination })}>
              {running ? 'Pruning…' : `Delete ${plural(goes.length, 'backup')}`}
            </button>
          </footer>
        </>
      )}
    </Dialog>
  );
}

export function BackupsTab({ entry, focusBackup }: { entry: DestinationEntry; focusBackup?: string | undefined }) {
  const [reload, setReload] = useState(0);
  const [pruning, setPruning] = useState(false);
  const list = useBackups(entry.id, reload);
  const state = list.state;
  const rows = useMemo(() => (state.status === 'ok' ? backupRows(state.value.backups) : []), [state]);

  if (state.status === 'error')
    return (
      <Callout tone="danger" title="Could not read the backups" role="alert">
        <p>{state.error.message}</p>
      </Callout>
    );
  if (state.status !== 'ok') return <p role="status">Reading the backups of {entry.id}…</p>;
  const { settings, target, backups } = state.value;
  if (!settings.enabled)
    return (
      <Callout tone="warning" title="Backups are off for this workspace">
        <p data-testid="backups-off">
          Its file says <code>&quot;backups&quot;: &quot;off&quot;</code>: a replace, a forced replace or a repair deletes what it removes
          for good, and nothing can be undone. Remove that field (or set <code>{'{"folder": …, "keep": 5}'}</code>) to keep a backup of
          every apply.
        </p>
      </Callout>
    );
  const { goes, mayGo } = pruneCandidates(backups, settings.keep);

  return (
    <div>
      <p data-testid="backups-where">
        Every apply to {entry.id} keeps what it deletes or overwrites in <code>{target?.enabled ? target.folder : settings.folder}</code>
        {target?.enabled
          ? target.method === 'rename'
            ? ' (moved by rename: the same file system)'
            : ' (copied and verified: another file system)'
          : ''}
        , the newest {settings.keep} kept: a replace, a forced replace, a repair and a discard of staging alike.
      </p>
      <div className="button-row">
        <button type="button" className="button" onClick={() => setReload((count) => count + 1)}>
          <Icon name="refresh" /> Reload
        </button>
        <button
          type="button"
          className="button danger-outline"
          disabled={goes.length === 0 && mayGo.length === 0}
          onClick={() => setPruning(true)}
        >
          <Icon name="trash" /> Prune to the newest {settings.keep}…
        </button>
      </div>
      {rows.length === 0 ? (
        <p className="muted">No backup of {entry.id} yet: the next replace, forced replace or repair keeps one here.</p>
      ) : (
        <div className="table-wrap section">
          <table className="backups-table">
            <caption className="visually-hidden">Backups of {entry.id}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Made by</th>
                <th scope="col">Size</th>
                <th scope="col">Method</th>
                <th scope="col">Undo</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const time = formatTimestamp(row.createdAt);
                return (
                  <tr key={row.id} data-backup-id={row.id} className={row.id === focusBackup ? 'focused' : undefined}>
                    <td>
                      <time dateTime={row.createdAt} title={time ? `${time.local} (${time.utc})` : row.createdAt}>
                        {formatAge(row.createdAt) || row.createdAt}
                      </time>
                      <div className="muted">
                        <code>{row.id}</code>
                      </div>
                    </td>
                    <td>
                      {row.madeBy} <span className={`badge ${row.tone}`}>{row.outcome}</span>
                    </td>
                    <td>{row.size}</td>
                    <td>{row.method}</td>
                    <td>
                      {row.notRestorable === undefined ? (
                        <button type="button" className="button small" onClick={() => openRestore(entry.id, row.id)}>
                          Restore this backup
                        </button>
                      ) : (
                        <span className="muted">{row.notRestorable}</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {pruning && (
        <PruneDialog
          goes={goes}
          mayGo={mayGo}
          keep={settings.keep}
          destination={entry.id}
          onCancel={() => setPruning(false)}
          onDone={() => {
            setPruning(false);
            setReload((count) => count + 1);
          }}
        />
      )}
    </div>
  );
}
