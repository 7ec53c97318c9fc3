// "Remove host": takes a host out of the workspace file after one explicit confirmation that names
// how many destinations leave the list. Nothing on the host is touched and no byte of any destination
// moves (it is undone by adding the host again), so one confirmation, never a typed id. Cancel first.

import { useState } from 'react';
import type { HostState } from '../../shared/api';
import { plural } from '../view/format';
import { removeHost } from '../state/actions';
import { Dialog } from './Dialog';

interface Props {
  host: HostState;
  /** How many of its destinations the list shows now. */
  listed: number;
  onClose: () => void;
}

export function RemoveHostDialog({ host, listed, onClose }: Props) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const confirm = async () => {
    setSaving(true);
    const answer = await removeHost(host.name);
    setSaving(false);
    if (answer.ok) onClose();
    else setError(answer.error.message);
  };
  return (
    <Dialog
      title={`Remove host ${host.name}?`}
      labelId="remove-host-title"
      descriptionId="remove-host-description"
      role="alertdialog"
      locked={saving}
      onClose={onClose}
    >
      <p id="remove-host-description">
        {host.name} ({host.url}) is taken out of the workspace file’s hosts and its connection is closed;{' '}
        {listed > 0 ? `its ${plural(listed, 'destination')} leave the list` : 'it has no destination in the list'}. Nothing on the host is
        changed. Add it again to bring it back.
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="button-row">
        <button type="button" className="button" onClick={onClose} disabled={saving} data-autofocus>
          Cancel
        </button>
        <button type="button" className="button danger" onClick={() => void confirm()} disabled={saving}>
          {saving ? 'Removing…' : `Remove ${host.name}`}
        </button>
      </div>
    </Dialog>
  );
}
