// The asynchronous reader of one destination (the main thread): reads the facts from disk and hands
// them to classifyDestination.ts, which holds the rules (CONTRACT.md: destination status). Reads the
// state file once; never follows a symbolic link, neither the destination nor its state file.

import { constants, promises as fs } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { DestinationInspectionData } from '../../shared/inspection';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { STATE_FILE_NAME, type State } from '../../shared/stateSchema';
import { classifyDestination, type DestinationFacts } from './classifyDestination';

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
  const read = await readFacts(dir);
  const { facts, bytes } = read;
  const classified = classifyDestination(dir, facts);
  const inspection: DestinationInspection = { ...classified.inspection };
  if (classified.json) inspection.stateJson = classified.json;
  if (classified.state) inspection.state = classified.state;
  if (options.includeText && bytes) inspection.stateText = classified.text ?? Buffer.from(bytes).toString('utf8');
  return inspection;
}

/** What is at the destination, for the classifier: lstat, the state file read once, a listing, the staging folder. */
async function readFacts(dir: string): Promise<{ facts: DestinationFacts; bytes?: Buffer }> {
  const stat = await fs.lstat(dir).catch((cause) => (errnoCode(cause) === 'ENOENT' ? undefined : Promise.reject(cause)));
  if (!stat) return { facts: { kind: 'missing' } };
  if (stat.isSymbolicLink()) return { facts: { kind: 'symlink' } };
  if (!stat.isDirectory()) return { facts: { kind: 'not_directory' } };
  const read = await readStateFile(path.join(dir, STATE_FILE_NAME));
  const hasContent = await directoryHasEntries(dir, STATE_FILE_NAME);
  const hasStaging = (await fs.lstat(path.join(dir, STAGING_DIR_NAME)).catch(() => undefined)) !== undefined;
  if (read.kind !== 'bytes') return { facts: { kind: 'directory', stateFile: read, hasContent, hasStaging } };
  const sha256 = `sha256:${createHash('sha256').update(read.bytes).digest('hex')}`;
  return {
    facts: { kind: 'directory', stateFile: { kind: 'bytes', bytes: read.bytes, sha256 }, hasContent, hasStaging },
    bytes: read.bytes,
  };
}
