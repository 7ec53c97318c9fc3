// Adds, edits and removes a host of the workspace file (issues 15 and 28: the app's Add host, Edit host
// and Remove host): the dialog's fields checked one by one (shared/hostEntry.ts: every bad field named
// at once, at its field), then written into the file's `hosts` (workspaceHostsFile.ts: everything else
// kept, atomically, refused if the file changed underneath). An edit or a removal is refused when the
// host in the file is no longer the one this window read (it was changed by hand meanwhile).

import { fail } from '../../shared/apiError';
import { hostEntryOf, type HostFields } from '../../shared/hostEntry';
import type { LoadedWorkspace, WorkspaceHost } from '../../shared/workspaceSchema';
import { updateWorkspaceHosts, type HostsFileOptions, type RawHostEntry } from './workspaceHostsFile';

export interface AddHostRequest {
  name: string;
  /** `[user@]host[:port]` or an ssh config alias. */
  target: string;
  /** Absolute, on the host. */
  path: string;
  agent?: string;
  identityFile?: string;
  jumpHost?: string;
  sshConfig?: string;
  connectTimeout?: string;
}

export async function addWorkspaceHost(loaded: LoadedWorkspace, request: AddHostRequest, options?: HostsFileOptions): Promise<void> {
  const { target, ...rest } = request;
  await updateWorkspaceHosts(
    loaded,
    'addHost',
    (hosts) => {
      const made = hostEntryOf({ ...rest, host: '', target }, hosts);
      return 'issues' in made ? made : { hosts: [...hosts, made.entry] };
    },
    options,
  );
}

/** The file's entry for the host this window read, or refused naming the file and what differs. */
function entryAsRead(hosts: RawHostEntry[], file: string, read: WorkspaceHost): number {
  const index = hosts.findIndex((host) => host.name === read.name);
  if (index === -1)
    throw fail('not_found', `${file}: has no host "${read.name}" now (removed by hand?): Rescan to read it again`, { file });
  const entry = hosts[index]!;
  const fields = [
    ['url', read.url],
    ['agent', read.agent],
    ['identity_file', read.identityFile],
    ['jump_host', read.jumpHost],
    ['ssh_config', read.sshConfig],
  ] as const;
  // The file's seconds as the loader reads them (rounded up to a millisecond).
  const timeout = typeof entry.connect_timeout === 'number' ? Math.ceil(entry.connect_timeout * 1000) : entry.connect_timeout;
  const differs = [...fields, ['connect_timeout', read.connectTimeoutMs] as const].find(
    ([field, value]) => (field === 'connect_timeout' ? timeout : entry[field]) !== value,
  );
  if (differs)
    throw fail(
      'refused',
      `${file}: hosts[${index}].${differs[0]} of "${read.name}" changed on disk since it was read: nothing was written; Rescan to read it again, then edit`,
      { file, reason: 'changed_on_disk', field: `hosts[${index}].${differs[0]}` },
    );
  return index;
}

function hostAsRead(loaded: LoadedWorkspace, name: string): WorkspaceHost {
  const read = loaded.hosts?.find((host) => host.name === name);
  if (!read) throw fail('not_found', `no host "${name}" in the open workspace`);
  return read;
}

/** Replaces the host's known fields with the dialog's; its other keys, and the other hosts, stay. */
export async function editWorkspaceHost(
  loaded: LoadedWorkspace,
  name: string,
  fields: HostFields,
  options?: HostsFileOptions,
): Promise<void> {
  const read = hostAsRead(loaded, name);
  await updateWorkspaceHosts(
    loaded,
    'editHost',
    (hosts, file) => {
      const index = entryAsRead(hosts, file, read);
      const made = hostEntryOf(
        fields,
        hosts.filter((_, at) => at !== index),
      );
      if ('issues' in made) return made;
      const {
        name: _name,
        url: _url,
        agent: _agent,
        identity_file: _key,
        jump_host: _jump,
        ssh_config: _config,
        connect_timeout: _timeout,
        ...kept
      } = hosts[index]!;
      return { hosts: hosts.map((host, at) => (at === index ? { ...made.entry, ...kept, ...made.entry } : host)) };
    },
    options,
  );
}

export async function removeWorkspaceHost(loaded: LoadedWorkspace, name: string, options?: HostsFileOptions): Promise<void> {
  const read = hostAsRead(loaded, name);
  await updateWorkspaceHosts(
    loaded,
    'removeHost',
    (hosts, file) => {
      const index = entryAsRead(hosts, file, read);
      return { hosts: hosts.filter((_, at) => at !== index) };
    },
    options,
  );
}
