// The scan's fast reader: the same inspection as inspectDestination.ts, read with synchronous calls,
// for worker threads (where blocking is free and a promise per syscall costs ~9x the CPU).
// scanReader.test.ts holds the two readers together on every kind of destination; a change to the
// rules of one must be made in both. Never follows a symbolic link, never opens a FIFO blocking.

import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { hash } from 'node:crypto';
import path from 'node:path';
import { error } from '../../shared/issues';
import { parseState } from '../../shared/parseDocument';
import { interruptedIssues } from './stagingReader';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import type { ScanSummary } from '../../shared/verifyReport';
import type { DestinationInspection } from './inspectDestination';

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;

/**
 * An inspection as it crosses from a worker to the main thread: the state travels as its text and
 * is parsed there once with JSON.parse (cheaper to send than two object graphs, and zod already
 * checked it here).
 */
export type InspectionWire = Omit<DestinationInspection, 'stateJson' | 'state'> & { stateJsonText?: string };

function errnoCode(cause: unknown): string | undefined {
  return (cause as NodeJS.ErrnoException | undefined)?.code;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function readStateFile(file: string): { kind: 'missing' } | { kind: 'not_a_file'; what: string } | { kind: 'bytes'; bytes: Buffer } {
  if (NO_FOLLOW === 0) {
    let stat;
    try {
      stat = lstatSync(file);
    } catch (cause) {
      if (errnoCode(cause) === 'ENOENT') return { kind: 'missing' };
      throw cause;
    }
    if (!stat.isFile())
      return {
        kind: 'not_a_file',
        what: stat.isSymbolicLink() ? 'a symbolic link' : stat.isDirectory() ? 'a directory' : 'not a regular file',
      };
  }
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  } catch (cause) {
    const code = errnoCode(cause);
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'ELOOP') return { kind: 'not_a_file', what: 'a symbolic link' };
    throw cause;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      return { kind: 'not_a_file', what: stat.isDirectory() ? 'a directory' : 'not a regular file (a device, FIFO or socket)' };
    return { kind: 'bytes', bytes: readFileSync(fd) };
  } finally {
    closeSync(fd);
  }
}

/** inspectDestination, synchronously, with the state as text. Throws only where it would reject. */
export function inspectDestinationSync(destination: string): { inspection: InspectionWire; json?: Record<string, unknown> } {
  const dir = path.resolve(destination);
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  if (!stat) return { inspection: { path: dir, status: 'empty', issues: [], hasContent: false } };
  if (stat.isSymbolicLink()) {
    return {
      inspection: {
        path: dir,
        status: 'unmanaged',
        hasContent: true,
        issues: [error([], 'destination_is_symlink', `${dir} is a symbolic link; destinations are never followed through links`)],
      },
    };
  }
  if (!stat.isDirectory()) {
    return {
      inspection: {
        path: dir,
        status: 'unmanaged',
        hasContent: true,
        issues: [error([], 'destination_not_directory', `${dir} is not a directory`)],
      },
    };
  }

  const stateFile = path.join(dir, STATE_FILE_NAME);
  // One listing answers three questions: is there a state file, anything else, a staging folder.
  const names = readdirSync(dir);
  const read = names.includes(STATE_FILE_NAME) ? readStateFile(stateFile) : { kind: 'missing' as const };
  const hasContent = names.some((name) => name !== STATE_FILE_NAME);
  const interrupted = (outputs?: readonly { path: string }[]) => interruptedIssues(dir, outputs, names);
  if (read.kind === 'missing')
    return { inspection: { path: dir, status: hasContent ? 'unmanaged' : 'empty', issues: interrupted(), hasContent } };
  if (read.kind === 'not_a_file') {
    return {
      inspection: {
        path: dir,
        status: 'invalid',
        hasContent,
        issues: [...interrupted(), error([], 'state_not_a_file', `${stateFile} is ${read.what}, not a state file`)],
      },
    };
  }

  const text = decodeUtf8(read.bytes);
  const parsed = parseState(text ?? read.bytes);
  const inspection: InspectionWire = {
    path: dir,
    status: parsed.status,
    issues: [...interrupted(parsed.status === 'managed' ? parsed.state.outputs : undefined), ...parsed.issues],
    // One-shot hash: no Hash object per destination.
    stateSha256: `sha256:${hash('sha256', read.bytes, 'hex')}`,
    hasContent,
  };
  // parsed.json exists exactly when the text parsed as a JSON object, so text is defined then.
  if (parsed.json && text !== undefined) inspection.stateJsonText = text;
  return { inspection, json: parsed.json };
}

function stringField(json: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = json?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** The row of the destination list: from the inspection and the state's JSON (also when invalid). */
export function summarizeInspection(
  inspection: Pick<DestinationInspection, 'status' | 'issues'>,
  json: Record<string, unknown> | undefined,
): ScanSummary {
  const summary: ScanSummary = {
    status: inspection.status,
    outputCount: Array.isArray(json?.outputs) ? json.outputs.length : 0,
    errorCount: inspection.issues.filter((issue) => issue.severity === 'error').length,
    warningCount: inspection.issues.filter((issue) => issue.severity === 'warning').length,
  };
  const pipelineId = stringField(json, 'pipeline_id');
  const destinationId = stringField(json, 'destination_id');
  const publishedAt = stringField(json, 'published_at');
  if (pipelineId !== undefined) summary.pipeline_id = pipelineId;
  if (destinationId !== undefined) summary.destination_id = destinationId;
  if (publishedAt !== undefined) summary.published_at = publishedAt;
  return summary;
}
