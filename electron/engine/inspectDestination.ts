// Reads one destination bundle path from disk and classifies it (CONTRACT.md: destination status).
// Reads the state file once; never follows a symbolic link, neither the destination nor its state file.

import { promises as fs } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { DestinationInspectionData } from '../../shared/inspection';
import { error } from '../../shared/issues';
import { parseState } from '../../shared/parseDocument';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { STATE_FILE_NAME, type State } from '../../shared/stateSchema';
import { readRegularFile } from './regularFile';

/** The inspection as data (shared/inspection.ts), plus the validated state when managed. */
export interface DestinationInspection extends DestinationInspectionData {
  state?: State;
}

export interface InspectOptions {
  includeText?: boolean;
}

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

/** Reads the state file only if it is a regular file (regularFile.ts): never a link, never a FIFO or device. */
async function readStateFile(
  file: string,
): Promise<{ kind: 'missing' } | { kind: 'not_a_file'; what: string } | { kind: 'bytes'; bytes: Buffer }> {
  const read = await readRegularFile(file);
  // No size cap here: the state is read as bytes, and parseState bounds what it builds (issue caps).
  return read.kind === 'too_large' ? { kind: 'not_a_file', what: `${read.sizeBytes} bytes` } : read;
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
  // A staging folder outlives only an apply that was killed or failed mid-way (applyPlan.ts).
  const staging = await fs.lstat(path.join(dir, STAGING_DIR_NAME)).catch(() => undefined);
  const interrupted = staging
    ? [
        error(
          [STAGING_DIR_NAME],
          'interrupted',
          `a replace was interrupted: ${STAGING_DIR_NAME} was left behind; a forced replace clears it`,
        ),
      ]
    : [];
  if (read.kind === 'missing') return { path: dir, status: hasContent ? 'unmanaged' : 'empty', issues: interrupted, hasContent };
  if (read.kind === 'not_a_file') {
    return {
      path: dir,
      status: 'invalid',
      hasContent,
      issues: [...interrupted, error([], 'state_not_a_file', `${stateFile} is ${read.what}, not a state file`)],
    };
  }

  // Decode once: the parser and the raw view share the text. Bytes that are not UTF-8 go to the
  // parser as bytes, so that it reports them.
  const text = decodeUtf8(read.bytes);
  const parsed = parseState(text ?? read.bytes);
  const inspection: DestinationInspection = {
    path: dir,
    status: parsed.status,
    issues: [...interrupted, ...parsed.issues],
    stateSha256: `sha256:${createHash('sha256').update(read.bytes).digest('hex')}`,
    hasContent,
  };
  if (parsed.json) inspection.stateJson = parsed.json;
  if (parsed.status === 'managed') inspection.state = parsed.state;
  if (options.includeText) inspection.stateText = text ?? read.bytes.toString('utf8');
  return inspection;
}
