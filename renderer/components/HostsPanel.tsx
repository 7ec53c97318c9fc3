// The open workspace's hosts above the list: each one's connection (a word, an icon, why it failed or
// was lost, and Reconnect), a filter to one machine's destinations, and "Add host". Shown only for a
// workspace that lists hosts, or where one can be added (a workspace file).

import { useState } from 'react';
import { reconnectHost } from '../state/actions';
import { store, useAppState } from '../state/store';
import { canReconnect, HOST_LOOK } from '../view/hostWords';
import { AddHostDialog } from './AddHostDialog';
import { Icon } from './Icon';
import { plural } from '../view/format';

export const HOST_FILTER_ID = 'host-filter';

export function HostsPanel() {
  const hosts = useAppState((state) => state.hosts);
  const kind = useAppState((state) => state.workspace?.kind);
  const hostFilter = useAppState((state) => state.filter.host);
  const [adding, setAdding] = useState(false);
  if (hosts.length === 0 && kind !== 'file') return null;
  return (
    <section className="hosts-panel" aria-label="Hosts">
      {hosts.length > 0 && (
        <>
          <ul className="host-list">
            {hosts.map((host) => {
              const look = HOST_LOOK[host.state];
              return (
                <li key={host.name} className="host" data-host={host.name} data-state={host.state}>
                  <div className="line">
                    <strong className="name">{host.name}</strong>
                    <span className={`badge ${look.tone}`} data-testid={`host-state-${host.name}`}>
                      <Icon name={look.icon} />
                      {look.label}
                    </span>
                    {host.state === 'connected' && <span className="muted">{plural(host.destinations, 'destination')}</span>}
                    {canReconnect(host) && (
                      <button type="button" className="button small" onClick={() => void reconnectHost(host.name)}>
                        <Icon name="refresh" /> Reconnect {host.name}
                      </button>
                    )}
                  </div>
                  <div className="sub" title={host.url}>
                    {host.url}
                  </div>
                  {host.failure && host.state !== 'connected' && (
                    <p className="host-failure" role={host.state === 'lost' ? 'alert' : undefined}>
                      <code>{host.failure.code}</code> {host.failure.message}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
          <label htmlFor={HOST_FILTER_ID}>
            Show{' '}
            <select
              id={HOST_FILTER_ID}
              value={hostFilter === undefined ? '*' : hostFilter === '' ? '.' : `h:${hostFilter}`}
              onChange={(event) => {
                const value = event.target.value;
                const host = value === '*' ? undefined : value === '.' ? '' : value.slice(2);
                store.set((state) => ({ filter: { ...state.filter, host } }));
              }}
            >
              <option value="*">every machine</option>
              <option value=".">this machine</option>
              {hosts.map((host) => (
                <option key={host.name} value={`h:${host.name}`}>
                  {host.name}
                </option>
              ))}
            </select>
          </label>
        </>
      )}
      {kind === 'file' && (
        <button type="button" className="button small" onClick={() => setAdding(true)}>
          Add host…
        </button>
      )}
      {adding && <AddHostDialog onClose={() => setAdding(false)} />}
    </section>
  );
}
