// The banner over everything when the link to the inspector is lost (the browser host killed, hung or
// stopped; its heartbeat no longer heard): since when, what became of running jobs, what to do, and a
// Reconnect button. When the link is back it says the workspace is being read again, then that it was.
// Never claims a job finished or failed: only a re-inspection says what is on disk.

import { reconnect } from '../state/actions';
import { store, useAppState } from '../state/store';
import { formatTimestamp } from '../view/format';
import { Callout } from './Callout';
import { COMMAND_NAME } from '../../shared/commandName';

function timeOf(iso: string): string {
  return formatTimestamp(iso)?.local ?? iso;
}

export function ConnectionBanner() {
  const connection = useAppState((state) => state.connection);
  const reconnected = useAppState((state) => state.reconnected);
  const unknownJobs = useAppState((state) => state.jobs.filter((job) => job.outcomeUnknown).length);
  const command = useAppState((state) => state.command) ?? COMMAND_NAME;
  const address = typeof window !== 'undefined' ? window.location.origin : 'the address the host printed';
  const port = typeof window !== 'undefined' ? window.location.port : 'PORT';

  if (connection?.status === 'lost' || connection?.status === 'refused') {
    const jobs =
      unknownJobs > 0
        ? ` ${unknownJobs === 1 ? 'The job that was running is' : `The ${unknownJobs} jobs that were running are`} marked “outcome unknown: re-inspect”: it may have finished, failed or stopped with the host.`
        : '';
    return (
      <Callout tone="danger" role="alert" title="Connection to the inspector lost">
        {connection.status === 'lost' ? (
          <p data-testid="connection-lost">
            No answer from the inspector at <code>{address}</code> since {timeOf(connection.since)}.{jobs} Trying again every second; the
            workspace is read again as soon as it answers. If the inspector was stopped, start it again on the same port (
            <code>
              {command} serve WORKSPACE --port {port} --token-file FILE
            </code>{' '}
            keeps this tab’s token), or open the new address it prints.
          </p>
        ) : (
          <p data-testid="connection-refused">
            The inspector at <code>{address}</code> answers, but not to this tab’s token: it was started again with a new one.{jobs} Open
            the address it printed (<code>Open: http://127.0.0.1:{port}/#token=…</code>); <code>--token-file FILE</code> keeps the token
            across restarts.
          </p>
        )}
        <div className="button-row">
          <button type="button" className="button" onClick={reconnect}>
            Reconnect
          </button>
        </div>
      </Callout>
    );
  }
  if (reconnected) {
    return (
      <Callout tone="info" role="status" title="Reconnected to the inspector">
        <p data-testid="connection-back">
          {reconnected.sameHost ? 'The same inspector answered again' : 'A restarted inspector answered'} at {timeOf(reconnected.at)}
          {reconnected.reinspecting
            ? ': reading the workspace again…'
            : ': the workspace was read again; what is shown is the disk as it is now.'}
        </p>
        {!reconnected.reinspecting && (
          <div className="button-row">
            <button type="button" className="button small" onClick={() => store.set({ reconnected: undefined })}>
              Dismiss
            </button>
          </div>
        )}
      </Callout>
    );
  }
  return null;
}
