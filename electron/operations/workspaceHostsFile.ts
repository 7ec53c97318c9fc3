// Changes the `hosts` of the open workspace file (issues 15 and 28: Add, Edit and Remove host) and
// nothing else in it: every other field, and every other key of a host entry, kept as it was; the
// indentation kept. Written atomically (a temp file beside it, fsync, rename), and only if the file
// still holds the bytes that were read: a file changed underneath (an editor, another window) is
// refused, never overwritten. Must never write a file the loader would refuse, nor touch a folder
// workspace (its destinations are its folders: there is no file).

import { randomBytes } from 'node:crypto';
import { open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ApiFailure, fail } from '../../shared/apiError';
import type { Issue } from '../../shared/issues';
import { WORKSPACE_FILE_NAME, type LoadedWorkspace } from '../../shared/workspaceSchema';
import { readRegularFile } from '../engine/regularFile';

/** A host entry as the file holds it: known fields checked by the loader, any other key kept. */
export type RawHostEntry = Record<string, unknown>;

/** What a change answers: the new list, or every problem (each at the dialog's field). */
export type HostsChange = (hosts: RawHostEntry[], file: string) => { hosts: RawHostEntry[] } | { issues: Issue[] };

export interface HostsFileOptions {
  /** Tests only: runs between the read and the write, to change the file underneath. */
  beforeWrite?: () => Promise<void>;
}

/** The workspace file, or refused for a folder workspace. */
export function workspaceFileOf(loaded: LoadedWorkspace): string {
  if (loaded.kind !== 'file' || !loaded.file)
    throw fail(
      'refused',
      `the open workspace is the folder ${loaded.root}: hosts are kept in a workspace file; create ${path.join(loaded.root, WORKSPACE_FILE_NAME)} (its destinations and hosts) and open it`,
    );
  return loaded.file;
}

async function readBytes(file: string): Promise<Buffer> {
  // Only a regular file, opened non-blocking (a FIFO swapped in since it was loaded never holds the call).
  const read = await readRegularFile(file, { followLinks: true }).catch((cause: NodeJS.ErrnoException) => {
    throw fail('invalid_workspace', `${file}: cannot be read (${cause.code ?? cause.message})`, { file });
  });
  if (read.kind !== 'bytes')
    throw fail('invalid_workspace', `${file}: cannot be read (${read.kind === 'not_a_file' ? `it is ${read.what}` : read.kind})`, { file });
  return read.bytes;
}

/** Reads the file, applies `change` to its hosts, and writes it back if it did not change meanwhile. */
export async function updateWorkspaceHosts(
  loaded: LoadedWorkspace,
  method: string,
  change: HostsChange,
  options: HostsFileOptions = {},
): Promise<void> {
  const file = workspaceFileOf(loaded);
  const bytes = await readBytes(file);
  const text = bytes.toString('utf8');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (cause) {
    throw fail('invalid_workspace', `${file}: is not valid JSON now (${(cause as Error).message}): fix it before changing its hosts`, {
      file,
    });
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw fail('invalid_workspace', `${file}: its top level is not an object`, { file });
  const record = document as Record<string, unknown>;
  if (record.hosts !== undefined && !Array.isArray(record.hosts))
    throw fail('invalid_workspace', `${file}: hosts: must be a list`, {
      file,
      issues: [{ path: ['hosts'], code: 'invalid_type', message: 'must be a list', severity: 'error' }],
    });
  const existing = ((record.hosts as unknown[] | undefined) ?? []).map((entry) =>
    entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? (entry as RawHostEntry) : {},
  );
  const changed = change(existing, file);
  if ('issues' in changed) {
    const first = changed.issues[0]!;
    throw fail('bad_request', `${method}: ${file}: ${String(first.path[0])}: ${first.message}`, { file, issues: changed.issues });
  }
  record.hosts = changed.hosts;
  const indent = /^\{\s*\n(\s+)"/.exec(text)?.[1] ?? '  ';
  await options.beforeWrite?.();
  await writeIfUnchanged(file, bytes, `${JSON.stringify(record, null, indent)}\n`);
}

/**
 * Writes `text` in place of `file` atomically, unless the file no longer holds `read`. The check
 * runs after the temp file is complete and just before the rename: what can still slip between
 * them is one rename's time, never an edit made while the dialog was open.
 */
async function writeIfUnchanged(file: string, read: Buffer, text: string): Promise<void> {
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
    const now = await readBytes(file).catch(() => undefined);
    if (!now || !now.equals(read))
      throw fail(
        'refused',
        `${file}: changed on disk since it was read (another editor or window?): nothing was written; Rescan to read it again, then try again`,
        { file, reason: 'changed_on_disk' },
      );
    await rename(temp, file);
  } catch (cause) {
    await rm(temp, { force: true });
    if (cause instanceof ApiFailure) throw cause;
    throw fail('refused', `${file}: could not be written (${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message})`, { file });
  }
}
