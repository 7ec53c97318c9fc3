// One workspace host in the Hosts panel: its state in words (never colour alone), why it failed or
// was lost, when it was last connected and the countdown to its next automatic try (with "Reconnect
// now"), and Edit… and Remove… to fix or drop it without editing the workspace file by hand.

import { useEffect, useState } from 'react';
import type { HostState } from '../../shared/api';
import { reconnectHost } from '../state/actions';
import { formatTimestamp } from '../view/format';
import { canReconnect, HOST_LOOK, retryCountdown } from '../view/hostWords';
import { Icon } from './Icon';

interface Props {
  host: HostState;
  /** Files on this machine's workspace: hosts can be edited and removed there. */
  editable: boolean;
  onEdit: () => void;
  onRemove: () => void;
}

/** The countdown ticks each second while it shows, and only then. */
function Countdown({ retryAt }: { retryAt: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [retryAt]);
  return <span data-testid="host-countdown">{retryCountdown(retryAt, now)}</span>;
}

export function HostItem({ host, editable, onEdit, onRemove }: Props) {
  const look = HOST_LOOK[host.state];
  const lastConnected = host.lastConnected ? formatTimestamp(host.lastConnected) : undefined;
  // Tried again by itself: counting down to the next try, or trying now.
  const retrying = host.state === 'lost' && host.retries !== undefined;
  return (
    <li className="host" data-host={host.name} data-state={host.state}>
      <div className="line">
        <strong className="name">{host.name}</strong>
        <span className={`badge ${look.tone}`} data-testid={`host-state-${host.name}`}>
          <Icon name={look.icon} />
          {look.label}
        </span>
        {host.state === 'connected' && <span className="muted">{host.destinations.toLocaleString('en-US')} destinations</span>}
      </div>
      <div className="sub" title={host.url}>
        {host.url}
      </div>
      {host.failure && host.state !== 'connected' && (
        <p className="host-failure" role={host.state === 'lost' ? 'alert' : undefined}>
          <code>{host.failure.code}</code> {host.failure.message}
        </p>
      )}
      {host.state !== 'connected' && (lastConnected || retrying) && (
        <p className="host-retry muted" data-testid={`host-retry-${host.name}`}>
          {lastConnected && (
            <span title={lastConnected.utc}>
              last connected <time dateTime={host.lastConnected}>{lastConnected.local}</time>
            </span>
          )}
          {lastConnected && retrying && ' · '}
          {host.retryAt ? <Countdown retryAt={host.retryAt} /> : retrying && <span data-testid="host-countdown">reconnecting…</span>}
        </p>
      )}
      <div className="button-row host-actions">
        {canReconnect(host) && (
          <button
            type="button"
            className="button small"
            {...(host.state === 'lost' ? { 'aria-label': `Reconnect ${host.name} now` } : {})}
            onClick={() => void reconnectHost(host.name)}
          >
            <Icon name="refresh" /> {host.state === 'lost' ? 'Reconnect now' : `Reconnect ${host.name}`}
          </button>
        )}
        {editable && (
          <>
            <button type="button" className="button small" aria-label={`Edit host ${host.name}…`} onClick={onEdit}>
              Edit…
            </button>
            <button type="button" className="button small danger-outline" aria-label={`Remove host ${host.name}…`} onClick={onRemove}>
              Remove…
            </button>
          </>
        )}
      </div>
    </li>
  );
}
