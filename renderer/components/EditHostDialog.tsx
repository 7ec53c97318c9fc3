// "Edit host": a host's name, ssh host, user, port, path on the host, agent command and its own ssh
// settings (identity file, jump host, ssh config file), saved by the engine into the workspace file,
// then connected again. The way to fix a host that failed without editing the JSON by hand. A bad
// entry is said at its field (the engine names each one); nothing is saved until every field is right.

import { useState } from 'react';
import type { ApiError, HostState } from '../../shared/api';
import { parseSshUrl } from '../../shared/sshUrl';
import { editHost } from '../state/actions';
import { Dialog } from './Dialog';

interface Props {
  host: HostState;
  onClose: () => void;
}

type Field = 'name' | 'host' | 'user' | 'port' | 'path' | 'agent' | 'identityFile' | 'jumpHost' | 'sshConfig' | 'connectTimeout';
const FIELDS: Field[] = ['name', 'host', 'user', 'port', 'path', 'agent', 'identityFile', 'jumpHost', 'sshConfig', 'connectTimeout'];

interface Errors {
  byField: Partial<Record<Field, string>>;
  other?: string;
}

/** The engine's issues by field; anything it did not pin to one field is the dialog's own message. */
function fieldErrors(error: ApiError): Errors {
  const issues = (error.details?.issues as { path: unknown[]; message: string }[] | undefined) ?? [];
  const byField: Partial<Record<Field, string>> = {};
  for (const issue of issues) {
    const field = issue.path[0] as Field;
    if (FIELDS.includes(field)) byField[field] ??= issue.message;
  }
  return Object.keys(byField).length > 0 ? { byField } : { byField, other: error.message };
}

/** The host's settings as the fields show them: its URL split into host, user, port and path. */
function valuesOf(host: HostState): Record<Field, string> {
  const url = parseSshUrl(host.url);
  const target = url.ok ? url.value : { host: '', path: '' };
  return {
    name: host.name,
    host: target.host,
    user: target.user ?? '',
    port: target.port === undefined ? '' : String(target.port),
    path: target.path,
    agent: host.settings?.agent ?? '',
    identityFile: host.settings?.identityFile ?? '',
    jumpHost: host.settings?.jumpHost ?? '',
    sshConfig: host.settings?.sshConfig ?? '',
    connectTimeout: host.settings?.connectTimeout === undefined ? '' : String(host.settings.connectTimeout),
  };
}

const LABELS: Record<Field, { label: string; hint: string; placeholder: string }> = {
  name: { label: 'Name', hint: 'Its destinations are named NAME:ID.', placeholder: 'web-1' },
  host: { label: 'Host', hint: 'A host name, an address or an alias of your ssh config.', placeholder: 'web-1.example.com' },
  user: { label: 'User (optional)', hint: 'Default: your ssh config’s, else your own.', placeholder: 'deploy' },
  port: { label: 'Port (optional)', hint: '1 to 65535. Default: your ssh config’s, else 22.', placeholder: '22' },
  path: {
    label: 'Path on the host',
    hint: 'Absolute: a folder of destinations or a distributor-inspector.json file.',
    placeholder: '/srv/www',
  },
  agent: { label: 'Agent command', hint: 'Default: distributor-inspector (on the host’s PATH).', placeholder: 'distributor-inspector' },
  identityFile: { label: 'Identity file (optional)', hint: 'The key ssh offers (-i): absolute or ~/….', placeholder: '~/.ssh/id_ed25519' },
  jumpHost: {
    label: 'Jump host (optional)',
    hint: 'The host ssh goes through (-J): [user@]host[:port].',
    placeholder: 'bastion.example.com',
  },
  sshConfig: {
    label: 'ssh config file (optional)',
    hint: 'Read instead of ~/.ssh/config (-F): absolute or ~/….',
    placeholder: '~/.ssh/config',
  },
  connectTimeout: {
    label: 'Connect timeout, seconds (optional)',
    hint: 'How long ssh and the agent may take to answer before the host fails. Default: 60.',
    placeholder: '60',
  },
};

/** The keyboard a touch screen shows for a number field. */
const INPUT_MODES: Partial<Record<Field, 'numeric' | 'decimal'>> = { port: 'numeric', connectTimeout: 'decimal' };

export function EditHostDialog({ host, onClose }: Props) {
  const [values, setValues] = useState(() => valuesOf(host));
  const [errors, setErrors] = useState<Errors>({ byField: {} });
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    setSaving(true);
    const answer = await editHost({ name: host.name, settings: values });
    setSaving(false);
    if (answer.ok) onClose();
    else setErrors(fieldErrors(answer.error));
  };
  const input = (field: Field) => {
    const error = errors.byField[field];
    const id = `edit-host-${field}`;
    return (
      <div className="field" key={field}>
        <label htmlFor={id}>{LABELS[field].label}</label>
        <input
          id={id}
          value={values[field]}
          placeholder={LABELS[field].placeholder}
          onChange={(event) => setValues((current) => ({ ...current, [field]: event.target.value }))}
          aria-invalid={error !== undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          {...(field === 'name' ? { 'data-autofocus': true } : {})}
          {...(INPUT_MODES[field] ? { inputMode: INPUT_MODES[field] } : {})}
          spellCheck={false}
          autoComplete="off"
        />
        <span id={`${id}-hint`} className="muted">
          {LABELS[field].hint}
        </span>
        {error && (
          <span id={`${id}-error`} className="field-error" role="alert">
            {error}
          </span>
        )}
      </div>
    );
  };
  return (
    <Dialog
      title={`Edit host ${host.name}`}
      labelId="edit-host-title"
      descriptionId="edit-host-description"
      locked={saving}
      onClose={onClose}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <p id="edit-host-description">
          Saved to the workspace file, then the host is connected again with your own <code>ssh</code>. These settings apply to this host
          only; nothing is written to <code>~/.ssh</code>.
        </p>
        <fieldset className="host-fields">
          <legend>Where</legend>
          {(['name', 'host', 'user', 'port', 'path'] as const).map(input)}
        </fieldset>
        <fieldset className="host-fields">
          <legend>How</legend>
          {(['agent', 'identityFile', 'jumpHost', 'sshConfig', 'connectTimeout'] as const).map(input)}
        </fieldset>
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
            {saving ? 'Saving…' : 'Save and connect'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
