// A workspace host entry from what the Add host and Edit host dialogs send (issues 15 and 28): every
// field checked at once, each problem at its field, so the dialog says it beside that field. Only an
// entry the workspace loader would accept comes out; nothing typed can reach ssh as an option.
// Pure; never throws.

import { jumpHostProblem, localSshFileProblem, MAX_CONNECT_TIMEOUT_SECONDS } from './hostSettings';
import { error, type Issue } from './issues';
import { formatSshUrl, parseSshUrl } from './sshUrl';

/** The host's settings as the dialogs send them: each as typed, an empty optional one meaning "not set". */
export interface HostFields {
  name: string;
  /** Host name, address or ~/.ssh/config alias. */
  host: string;
  /** Add host's `[user@]host[:port]` in one field, in place of host, user and port. */
  target?: string | undefined;
  user?: string;
  /** As typed: checked here to be 1 to 65535. */
  port?: string;
  /** Absolute, on the host: a folder of destinations or a workspace file. */
  path: string;
  agent?: string;
  identityFile?: string;
  jumpHost?: string;
  sshConfig?: string;
  /** Seconds the agent's handshake may take, as typed (the file's `connect_timeout`); empty: the default, 60. */
  connectTimeout?: string;
}

/** A host as the workspace file holds it (its other fields, if any, are kept by the caller). */
export type HostFileEntry = {
  name: string;
  url: string;
  agent?: string;
  identity_file?: string;
  jump_host?: string;
  ssh_config?: string;
  connect_timeout?: number;
};

/** The dialog field each file field is typed in: an issue of the file names the field the user sees. */
export const HOST_FIELD_OF = {
  url: 'host',
  agent: 'agent',
  identity_file: 'identityFile',
  jump_host: 'jumpHost',
  ssh_config: 'sshConfig',
  connect_timeout: 'connectTimeout',
};

const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
const withoutPrefix = (message: string) => message.replace(/^"[^"]*" is not an ssh URL: /, '');
const given = (text: string | undefined) => (text === undefined || text.trim() === '' ? undefined : text.trim());

/**
 * The entry, or every problem at its field. `others` are the file's other hosts (for an edit, every
 * host but the one edited): a name or a `user@host:port/path` already there is refused.
 */
export function hostEntryOf(
  fields: HostFields,
  others: readonly { name?: unknown; url?: unknown }[],
): { entry: HostFileEntry } | { issues: Issue[] } {
  const issues: Issue[] = [];
  const name = fields.name.trim();
  if (!HOST_NAME.test(name))
    issues.push(
      error(
        ['name'],
        'invalid_host_name',
        `host name ${JSON.stringify(name)} must be 1 to 63 letters, digits, ".", "_" or "-", starting with a letter or a digit`,
      ),
    );
  else if (others.some((host) => host.name === name))
    issues.push(error(['name'], 'duplicate_host', `host name "${name}" is already in the workspace file`));

  const host = fields.host.trim();
  const hostParsed = host === '' ? undefined : parseSshUrl(`ssh://${host}/`);
  if (fields.target !== undefined) {
    // Add host's one field: `[user@]host[:port]`, its problems said at that field.
    const split = fieldsOfTarget(fields.target);
    if ('issue' in split) issues.push(split.issue);
    else return hostEntryOf({ ...fields, ...split, target: undefined }, others);
  } else if (hostParsed === undefined)
    issues.push(error(['host'], 'missing_field', 'the host is required: a host name, an address or an alias of ~/.ssh/config'));
  else if (!hostParsed.ok)
    issues.push(error(['host'], 'invalid_ssh_target', `host ${JSON.stringify(host)}: ${withoutPrefix(hostParsed.message)}`));
  else if (hostParsed.value.user !== undefined || hostParsed.value.port !== undefined)
    issues.push(error(['host'], 'invalid_ssh_target', `host ${JSON.stringify(host)}: give the user and the port in their own fields`));

  const user = given(fields.user);
  const userParsed = user === undefined ? undefined : parseSshUrl(`ssh://${user}@host/`);
  if (userParsed && !userParsed.ok)
    issues.push(error(['user'], 'invalid_user', `user ${JSON.stringify(user)}: ${withoutPrefix(userParsed.message)}`));

  const portText = given(fields.port);
  const port = portText === undefined ? undefined : Number(portText);
  if (portText !== undefined && (!/^[0-9]{1,5}$/.test(portText) || port! < 1 || port! > 65535))
    issues.push(error(['port'], 'invalid_port', `the port ${JSON.stringify(portText)} is not a number from 1 to 65535`));

  const where = fields.path.trim();
  let url: string | undefined;
  if (!where.startsWith('/'))
    issues.push(error(['path'], 'invalid_path', `the path on the host must be absolute (start with /), not ${JSON.stringify(where)}`));
  else if (hostParsed?.ok && fields.target === undefined && issues.every((issue) => issue.path[0] === 'name')) {
    const candidate = formatSshUrl({ ...(user ? { user } : {}), host: hostParsed.value.host, ...(port ? { port } : {}), path: where });
    const parsed = parseSshUrl(candidate);
    if (!parsed.ok) issues.push(error(['path'], 'invalid_path', `the path ${JSON.stringify(where)}: ${withoutPrefix(parsed.message)}`));
    else if (others.some((other) => other.url === candidate))
      issues.push(error(['path'], 'duplicate_host', `${candidate} is already in the workspace file`));
    else url = candidate;
  }

  if (fields.agent !== undefined && fields.agent.trim() === '' && fields.agent !== '')
    issues.push(error(['agent'], 'invalid_agent', 'the agent command must not be blank: leave it empty for distributor-inspector'));
  if (/[\u0000-\u001f\u007f]/.test(fields.agent ?? ''))
    issues.push(error(['agent'], 'invalid_agent', 'the agent command holds a control character'));
  const files = [
    ['identityFile', 'identity file', localSshFileProblem],
    ['sshConfig', 'ssh config file', localSshFileProblem],
    ['jumpHost', 'jump host', jumpHostProblem],
  ] as const;
  for (const [field, label, problemOf] of files) {
    const text = given(fields[field]);
    const problem = text === undefined ? undefined : problemOf(text);
    if (problem)
      issues.push(
        error(
          [field],
          'invalid_host_setting',
          `the ${label} ${JSON.stringify(text)} ${problem.replace(/^(?!is |must |holds )/, 'is wrong: ')}`,
        ),
      );
  }
  const timeoutText = given(fields.connectTimeout);
  const connectTimeout = timeoutText !== undefined && /^[0-9]+(\.[0-9]+)?$/.test(timeoutText) ? Number(timeoutText) : undefined;
  if (timeoutText !== undefined && !(connectTimeout! > 0 && connectTimeout! <= MAX_CONNECT_TIMEOUT_SECONDS))
    issues.push(
      error(
        ['connectTimeout'],
        'invalid_host_setting',
        `the connect timeout ${JSON.stringify(timeoutText)} is not a number of seconds above 0 and at most ${MAX_CONNECT_TIMEOUT_SECONDS} (a day)`,
      ),
    );
  if (issues.length > 0 || url === undefined) return { issues };
  const agent = given(fields.agent);
  const identityFile = given(fields.identityFile);
  const jumpHost = given(fields.jumpHost);
  const sshConfig = given(fields.sshConfig);
  return {
    entry: {
      name,
      url,
      ...(agent ? { agent } : {}),
      ...(identityFile ? { identity_file: identityFile } : {}),
      ...(jumpHost ? { jump_host: jumpHost } : {}),
      ...(sshConfig ? { ssh_config: sshConfig } : {}),
      ...(connectTimeout !== undefined ? { connect_timeout: connectTimeout } : {}),
    },
  };
}

/** The Add host dialog's `[user@]host[:port]` target as separate fields; a bad one is an issue at `target`. */
export function fieldsOfTarget(target: string): { host: string; user?: string; port?: string } | { issue: Issue } {
  const text = target.trim();
  if (text === '')
    return { issue: error(['target'], 'missing_field', 'the ssh target is required: [user@]host[:port] or an alias of ~/.ssh/config') };
  const parsed = parseSshUrl(`ssh://${text}/`);
  if (!parsed.ok)
    return { issue: error(['target'], 'invalid_ssh_target', `ssh target ${JSON.stringify(text)}: ${withoutPrefix(parsed.message)}`) };
  const { user, host, port } = parsed.value;
  return { host, ...(user !== undefined ? { user } : {}), ...(port !== undefined ? { port: String(port) } : {}) };
}
