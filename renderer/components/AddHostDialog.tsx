// "Add host": an ssh target and a path on that host (a folder of destinations or a workspace file),
// saved by the engine into the open workspace file, then connected. A bad entry is said at its field
// (the engine names each one); nothing is saved until every field is right.

import { useState } from 'react';
import type { ApiError } from '../../shared/api';
import { addHost } from '../state/actions';
import { Dialog } from './Dialog';

interface Props {
  onClose: () => void;
}

type Field = 'name' | 'target' | 'path' | 'agent' | 'identityFile' | 'jumpHost' | 'sshConfig' | 'connectTimeout';
const FIELDS: Field[] = ['name', 'target', 'path', 'agent', 'identityFile', 'jumpHost', 'sshConfig', 'connectTimeout'];
const SSH_SETTINGS: Field[] = ['identityFile', 'jumpHost', 'sshConfig', 'connectTimeout'];
/** Sent only when filled in: an empty optional field is "not set". */
const OPTIONAL: Field[] = ['agent', 'identityFile', 'jumpHost', 'sshConfig', 'connectTimeout'];

/** The engine's issues by field; anything it did not pin to one field is the dialog's own message. */
function fieldErrors(error: ApiError): { byField: Partial<Record<Field, string>>; other?: string } {
  const issues = (error.details?.issues as { path: unknown[]; message: string }[] | undefined) ?? [];
  const byField: Partial<Record<Field, string>> = {};
  for (const issue of issues) {
    const field = issue.path[0] as Field;
    if (FIELDS.includes(field)) byField[field] ??= issue.message;
  }
  return Object.keys(byField).length > 0 ? { byField } : { byField, other: error.message };
}

export function AddHostDialog({ onClose }: Props) {
  const [values, setValues] = useState<Record<Field, string>>({
    name: '',
    target: '',
    path: '',
    agent: '',
    identityFile: '',
    jumpHost: '',
    sshConfig: '',
    connectTimeout: '',
  });
  const [errors, setErrors] = useState<{ byField: Partial<Record<Field, string>>; other?: string }>({ byField: {} });
  const [saving, setSaving] = useState(false);
  const set = (field: Field) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));
  const submit = async () => {
    setSaving(true);
    const answer = await addHost({
      name: values.name,
      target: values.target,
      path: values.path,
      ...Object.fromEntries(OPTIONAL.filter((field) => values[field].trim() !== '').map((field) => [field, values[field]])),
    });
    setSaving(false);
    if (answer.ok) onClose();
    else setErrors(fieldErrors(answer.error));
  };
  const input = (field: Field, label: string, hint: string, placeholder: string) => (
    <div className="field">
      <label htmlFor={`add-host-${field}`}>{label}</label>
      <input
        id={`add-host-${field}`}
        value={values[field]}
        placeholder={placeholder}
        onChange={set(field)}
        aria-invalid={errors.byField[field] !== undefined}
        aria-describedby={`add-host-${field}-hint${errors.byField[field] ? ` add-host-${field}-error` : ''}`}
        {...(field === 'name' ? { 'data-autofocus': true } : {})}
        spellCheck={false}
        autoComplete="off"
      />
      <span id={`add-host-${field}-hint`} className="muted">
        {hint}
      </span>
      {errors.byField[field] && (
        <span id={`add-host-${field}-error`} className="field-error" role="alert">
          {errors.byField[field]}
        </span>
      )}
    </div>
  );
  return (
    <Dialog title="Add host" labelId="add-host-title" descriptionId="add-host-description" locked={saving} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <p id="add-host-description">
          The host is saved to the workspace file and reached with your own <code>ssh</code> (its config, keys and known hosts). The agent{' '}
          <code>distributor-inspector</code> must be installed there.
        </p>
        {input('name', 'Name', 'Short: its destinations are named NAME:ID.', 'web-1')}
        {input('target', 'SSH target', '[user@]host[:port], or an alias of ~/.ssh/config.', 'deploy@web-1.example.com')}
        {input('path', 'Path on the host', 'Absolute: a folder of destinations or a distributor-inspector.json file.', '/srv/www')}
        {input('agent', 'Agent command (optional)', 'Default: distributor-inspector', 'distributor-inspector')}
        <details className="host-ssh-settings" open={SSH_SETTINGS.some((field) => errors.byField[field] !== undefined) || undefined}>
          <summary>ssh settings of this host (optional)</summary>
          {input('identityFile', 'Identity file', 'The key ssh offers (-i): absolute or ~/….', '~/.ssh/id_ed25519')}
          {input('jumpHost', 'Jump host', 'The host ssh goes through (-J): [user@]host[:port].', 'bastion.example.com')}
          {input('sshConfig', 'ssh config file', 'Read instead of ~/.ssh/config (-F): absolute or ~/….', '~/.ssh/config')}
          {input(
            'connectTimeout',
            'Connect timeout, seconds',
            'How long ssh and the agent may take to answer before the host fails. Default: 60.',
            '60',
          )}
        </details>
        {errors.other && (
          <p className="field-error" role="alert">
            {errors.other}
          </p>
        )}
        <div className="button-row">
          <button type="button" className="button" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={saving}>
            {saving ? 'Saving…' : 'Add and connect'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
