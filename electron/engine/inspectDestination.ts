// Reads one destination bundle path from disk and classifies it (CONTRACT.md: destination status).
// Reads the state file once; never follows a symbolic link, neither the destination nor its state file.

import { constants, promises as fs } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { DestinationInspectionData } from '../../shared/inspection';
import { error } from '../../shared/issues';
import { parseState } from '../../shared/parseDocument';
import { interruptedIssues } from './stagingReader';
import { STATE_FILE_NAME, type State } from '../../shared/stateSchema';

/** The inspection as data (shared/inspection.ts), plus the validated state when managed. */
export interface DestinationInspection extends DestinationInspectionData {
  state?: State;
}

export interface InspectOptions {
  includeText?: boolean;
}

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
// A FIFO named .distributor.json would block a plain open until someone writes to it; non-blocking
// opens return at once, and the stat below refuses anything that is not a regular file.
const NON_BLOCK = constants.O_NONBLOCK ?? 0;

function errnoCode(cause: unknown): string | undefined {
  return (cause as NodeJS.ErrnoException | undefined)?.code;
}

async function directoryHasEntries(dir: string, ignore: string): Promise<boolean> {
  const handle = await fs.opendir(dir);
  try {
    for await (const entry of handle) if (entry.name !== ignore) return true;
    return false;
  } finally {
    // for-await closes the handle when it finishes, but not when we return early.
    await handle.close().catch(() => undefined);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Reads the state file without following a link: O_NOFOLLOW where the platform has it, lstat otherwise. */
async function readStateFile(
  file: string,
): Promise<{ kind: 'missing' } | { kind: 'not_a_file'; what: string } | { kind: 'bytes'; bytes: Buffer }> {
  if (NO_FOLLOW === 0) {
    const stat = await fs.lstat(file).catch((cause) => (errnoCode(cause) === 'ENOENT' ? undefined : Promise.reject(cause)));
    if (!stat) return { kind: 'missing' };
    if (!stat.isFile())
      return {
        kind: 'not_a_file',
        what: stat.isSymbolicLink() ? 'a symbolic link' : stat.isDirectory() ? 'a directory' : 'not a regular file',
      };
  }
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  } catch (cause) {
    const code = errnoCode(cause);
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'ELOOP') return { kind: 'not_a_file', what: 'a symbolic link' };
    throw cause;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile())
      return { kind: 'not_a_file', what: stat.isDirectory() ? 'a directory' : 'not a regular file (a device, FIFO or socket)' };
    return { kind: 'bytes', bytes: await handle.readFile() };
  } finally {
    await handle.close();
  }
}

export async function inspectDestination(destination: string, options: InspectOptions = {}): Promise<DestinationInspection> {
  const dir = path.resolve(destination);
  const stat = await fs.lstat(dir).catch((cause) => (errnoCode(cause) === 'ENOENT' ? undefined : Promise.reject(cause)));
  if (!stat) return { path: dir, status: 'empty', issues: [], hasContent: false };
  if (stat.isSymbolicLink()) {
    return {
      path: dir,
      status: 'unmanaged',
      hasContent: true,
      issues: [error([], 'destination_is_symlink', `${dir} is a symbolic link; destinations are never followed through links`)],
    };
  }
  if (!stat.isDirectory()) {
    return {
      path: dir,
      status: 'unmanaged',
      hasContent: true,
      issues: [error([], 'destination_not_directory', `${dir} is not a directory`)],
    };
  }

  const stateFile = path.join(dir, STATE_FILE_NAME);
  const read = await readStateFile(stateFile);
  const hasContent = await directoryHasEntries(dir, STATE_FILE_NAME);
  const interrupted = (outputs?: readonly { path: string }[]) => interruptedIssues(dir, outputs);
  if (read.kind === 'missing') return { path: dir, status: hasContent ? 'unmanaged' : 'empty', issues: interrupted(), hasContent };
  if (read.kind === 'not_a_file') {
    return {
      path: dir,
      status: 'invalid',
      hasContent,
      issues: [...interrupted(), error([], 'state_not_a_file', `${stateFile} is ${read.what}, not a state file`)],
    };
  }

  // Decode once: the parser and the raw view share the text. Bytes that are not UTF-8 go to the
  // parser as bytes, so that it reports them.
  const text = decodeUtf8(read.bytes);
  const parsed = parseState(text ?? read.bytes);
  const inspection: DestinationInspection = {
    path: dir,
    status: parsed.status,
    issues: [...interrupted(parsed.status === 'managed' ? parsed.state.outputs : undefined), ...parsed.issues],
    stateSha256: `sha256:${createHash('sha256').update(read.bytes).digest('hex')}`,
    hasContent,
  };
  if (parsed.json) inspection.stateJson = parsed.json;
  if (parsed.status === 'managed') inspection.state = parsed.state;
  if (options.includeText) inspection.stateText = text ?? read.bytes.toString('utf8');
  return inspection;
}
