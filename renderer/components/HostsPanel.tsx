// The open workspace's hosts above the list: each one (HostItem: its connection in words, why it failed
// or was lost, its reconnect countdown, Edit… and Remove…), a filter to one machine's destinations,
// and "Add host". Shown only for a workspace that lists hosts, or where one can be added (a workspace file).

import { useState } from 'react';
import type { HostState } from '../../shared/api';
import { store, useAppState } from '../state/store';
import { AddHostDialog } from './AddHostDialog';
import { EditHostDialog } from './EditHostDialog';
import { HostItem } from './HostItem';
import { RemoveHostDialog } from './RemoveHostDialog';

export const HOST_FILTER_ID = 'host-filter';

export function HostsPanel() {
  const hosts = useAppState((state) => state.hosts);
  const kind = useAppState((state) => state.workspace?.kind);
  const hostFilter = useAppState((state) => state.filter.host);
  const [adding, setAdding] = useState(false);
  const [dialog, setDialog] = useState<{ kind: 'edit' | 'remove'; host: HostState }>();
  const listed = useAppState((state) =>
    dialog ? (state.workspace?.destinations.filter((entry) => entry.host === dialog.host.name).length ?? 0) : 0,
  );
  if (hosts.length === 0 && kind !== 'file') return null;
  return (
    <section className="hosts-panel" aria-label="Hosts">
      {hosts.length > 0 && (
        <>
          <ul className="host-list">
            {hosts.map((host) => (
              <HostItem
                key={host.name}
                host={host}
                editable={kind === 'file'}
                onEdit={() => setDialog({ kind: 'edit', host })}
                onRemove={() => setDialog({ kind: 'remove', host })}
              />
            ))}
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
      {dialog?.kind === 'edit' && <EditHostDialog host={dialog.host} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'remove' && <RemoveHostDialog host={dialog.host} listed={listed} onClose={() => setDialog(undefined)} />}
    </section>
  );
}
