// Adds a host to a workspace file (issue 15: the app's "Add host"): an ssh target and a path on that
// host, checked field by field (every bad field named at once, as `bad_request` issues the dialog shows
// beside each field), then written into the file's `hosts` with everything else in it kept as it was.
// Written atomically (a temp file beside it, fsync, rename). Must never write a file that the loader
// would refuse, nor touch a folder workspace (its destinations are its folders: there is no file).

import { randomBytes } from 'node:crypto';
import { open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fail } from '../../shared/apiError';
import { error, type Issue } from '../../shared/issues';
import { formatSshUrl, parseSshUrl } from '../../shared/sshUrl';
import { WORKSPACE_FILE_NAME, workspaceFileHostSchema, type LoadedWorkspace } from '../../shared/workspaceSchema';
import { readRegularFile } from '../engine/regularFile';

export interface AddHostRequest {
  name: string;
  /** `[user@]host[:port]` or an ssh config alias. */
  target: string;
  /** Absolute, on the host. */
  path: string;
  agent?: string;
}

/** The host entry as the file will hold it, or every problem, each at its field. */
export function hostEntryOf(
  request: AddHostRequest,
  existing: { name?: unknown; url?: unknown }[],
): { entry: { name: string; url: string; agent?: string } } | { issues: Issue[] } {
  const issues: Issue[] = [];
  const name = request.name.trim();
  const named = workspaceFileHostSchema.shape.name.safeParse(name);
  if (!named.success)
    issues.push(
      error(['name'], 'invalid_host_name', `host name ${JSON.stringify(name)} ${named.error.issues[0]?.message ?? 'is not valid'}`),
    );
  else if (existing.some((host) => host.name === name))
    issues.push(error(['name'], 'duplicate_host', `host name "${name}" is already in the workspace file`));
  const targetText = request.target.trim();
  const target = targetText === '' ? undefined : parseSshUrl(`ssh://${targetText}/`);
  if (target === undefined)
    issues.push(error(['target'], 'missing_field', 'the ssh target is required: [user@]host[:port] or an alias of ~/.ssh/config'));
  else if (!target.ok)
    issues.push(
      error(
        ['target'],
        'invalid_ssh_target',
        `ssh target ${JSON.stringify(targetText)}: ${target.message.replace(/^"[^"]*" is not an ssh URL: /, '')}`,
      ),
    );
  const where = request.path.trim();
  let url: string | undefined;
  if (!where.startsWith('/'))
    issues.push(error(['path'], 'invalid_path', `the path on the host must be absolute (start with /), not ${JSON.stringify(where)}`));
  else if (target?.ok) {
    url = formatSshUrl({ ...target.value, path: where });
    const parsed = parseSshUrl(url);
    if (!parsed.ok)
      issues.push(
        error(['path'], 'invalid_path', `the path ${JSON.stringify(where)}: ${parsed.message.replace(/^"[^"]*" is not an ssh URL: /, '')}`),
      );
    else if (existing.some((host) => typeof host.url === 'string' && host.url === url))
      issues.push(error(['path'], 'duplicate_host', `${url} is already in the workspace file`));
  }
  const agent = request.agent?.trim();
  if (request.agent !== undefined && agent === '')
    issues.push(error(['agent'], 'invalid_agent', 'the agent command must not be empty: leave it out for distributor-inspector'));
  if (issues.length > 0 || url === undefined) return { issues };
  return { entry: { name, url, ...(agent ? { agent } : {}) } };
}

export async function addWorkspaceHost(loaded: LoadedWorkspace, request: AddHostRequest): Promise<void> {
  if (loaded.kind !== 'file' || !loaded.file)
    throw fail(
      'refused',
      `the open workspace is the folder ${loaded.root}: hosts are kept in a workspace file; create ${path.join(loaded.root, WORKSPACE_FILE_NAME)} (its destinations and hosts) and open it`,
    );
  const file = loaded.file;
  // Only a regular file, opened non-blocking (a FIFO swapped in since it was loaded never holds the call).
  const read = await readRegularFile(file, { followLinks: true }).catch((cause: NodeJS.ErrnoException) => {
    throw fail('invalid_workspace', `${file}: cannot be read (${cause.code ?? cause.message})`, { file });
  });
  if (read.kind !== 'bytes')
    throw fail('invalid_workspace', `${file}: cannot be read (${read.kind === 'not_a_file' ? `it is ${read.what}` : read.kind})`, { file });
  const text = read.bytes.toString('utf8');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (cause) {
    throw fail('invalid_workspace', `${file}: is not valid JSON now (${(cause as Error).message}): fix it before adding a host`, { file });
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw fail('invalid_workspace', `${file}: its top level is not an object`, { file });
  const record = document as Record<string, unknown>;
  if (record.hosts !== undefined && !Array.isArray(record.hosts))
    throw fail('invalid_workspace', `${file}: hosts: must be a list`, {
      file,
      issues: [error(['hosts'], 'invalid_type', 'must be a list')],
    });
  const existing = (record.hosts as { name?: unknown; url?: unknown }[] | undefined) ?? [];
  const made = hostEntryOf(request, existing);
  if ('issues' in made) {
    const first = made.issues[0]!;
    throw fail('bad_request', `addHost: ${String(first.path[0])}: ${first.message}`, { issues: made.issues });
  }
  record.hosts = [...existing, made.entry];
  const indent = /^\{\s*\n(\s+)"/.exec(text)?.[1] ?? '  ';
  await writeAtomically(file, `${JSON.stringify(record, null, indent)}\n`);
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const mode = (await stat(file)).mode & 0o777;
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (cause) {
    await rm(temp, { force: true });
    throw fail('refused', `${file}: could not be written (${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message})`, { file });
  }
}
