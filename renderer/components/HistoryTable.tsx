// The history journal's records as a table (the History tab, the workspace's History view): when,
// what, the outcome and why, counts, the source moved from and to, who applied it, and the backup it
// kept: a link to it (the destination's Backups tab, where one is offered) and Undo while it can
// still be restored (the restore dialog).

import type { BackupSummary } from '../../shared/backupSchema';
import { openRestore } from '../state/actions';
import { historyBackupLink } from '../view/backupView';
import type { HistoryRow } from '../view/historyRows';
import { formatAge, formatTimestamp } from '../view/format';

interface Props {
  rows: HistoryRow[];
  caption: string;
  withDestination: boolean;
  /** The backups that still exist, by backupKey(destination, id); undefined while they are read. */
  backups?: ReadonlyMap<string, BackupSummary> | undefined;
  /** Shows a backup in its destination's Backups tab. */
  onShowBackup?: ((destination: string, backupId: string) => void) | undefined;
}

function BackupCell({ row, backups, onShowBackup }: { row: HistoryRow } & Pick<Props, 'backups' | 'onShowBackup'>) {
  if (row.backupId === undefined) return <span className="muted">—</span>;
  const destination = row.destinationId ?? row.destination;
  const link = historyBackupLink({ action: row.action, backupId: row.backupId, destination }, backups);
  const id = row.backupId;
  const name =
    onShowBackup && link.kind !== 'gone' ? (
      <button type="button" className="link-button" onClick={() => onShowBackup(destination, id)} title="Show it in the Backups tab">
        <code>{id}</code>
      </button>
    ) : (
      <code>{id}</code>
    );
  if (link.kind === 'restored_from') return <span>from backup {name}</span>;
  if (link.kind === 'gone') return <span className="muted">{backups ? <>backup {name}: pruned or removed</> : <>backup {name}</>}</span>;
  if (link.kind !== 'kept') return null;
  return (
    <span className="history-backup">
      backup {name}
      {link.restorable && row.destinationId !== undefined ? (
        <>
          {' '}
          <button
            type="button"
            className="button small"
            onClick={() => openRestore(row.destinationId as string, id)}
            aria-label={`Undo the ${row.actionLabel} of ${row.destination} (restore backup ${id})`}
          >
            Undo
          </button>
        </>
      ) : link.restoredAt !== undefined ? (
        <span className="muted"> (restored)</span>
      ) : null}
    </span>
  );
}

export function HistoryTable({ rows, caption, withDestination, backups, onShowBackup }: Props) {
  return (
    <div className="table-wrap section">
      <table className="history-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            {withDestination && <th scope="col">Destination</th>}
            <th scope="col">Action</th>
            <th scope="col">Result</th>
            <th scope="col">Changes</th>
            <th scope="col">Source</th>
            <th scope="col">By</th>
            <th scope="col">Backup</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const time = formatTimestamp(row.at);
            return (
              <tr key={row.key} data-history-outcome={row.outcome}>
                <td>
                  <time dateTime={row.at} title={time ? `${time.local} (${time.utc})` : row.at}>
                    {formatAge(row.at) || row.at}
                  </time>
                </td>
                {withDestination && (
                  <td>
                    <code>{row.destination}</code>
                  </td>
                )}
                <td>{row.actionLabel}</td>
                <td>
                  <span className={`badge ${row.tone}`}>{row.outcome}</span>
                  {row.reason && <div className="muted history-reason">{row.reason}</div>}
                </td>
                <td>
                  {row.counts}
                  {row.kept && <div className="muted history-kept">{row.kept}</div>}
                </td>
                <td>{row.source}</td>
                <td>{row.by}</td>
                <td>
                  <BackupCell row={row} backups={backups} onShowBackup={onShowBackup} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
