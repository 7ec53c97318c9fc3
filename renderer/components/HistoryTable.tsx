// The history journal's records as a table (the History tab, the workspace's History view): when,
// what, the outcome and why, counts, the source moved from and to, and who applied it. Shows only.

import type { HistoryRow } from '../view/historyRows';
import { formatAge, formatTimestamp } from '../view/format';

export function HistoryTable({ rows, caption, withDestination }: { rows: HistoryRow[]; caption: string; withDestination: boolean }) {
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
                <td>{row.counts}</td>
                <td>{row.source}</td>
                <td>{row.by}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
