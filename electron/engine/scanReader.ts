// The scan's fast reader: the same inspection as inspectDestination.ts, read with synchronous calls,
// for worker threads (where blocking is free and a promise per syscall costs ~9x the CPU).
// scanReader.test.ts holds the two readers together on every kind of destination; a change to the
// rules of one must be made in both. Never follows a symbolic link, never opens a FIFO blocking.

import { lstatSync, readdirSync } from 'node:fs';
import { hash } from 'node:crypto';
import path from 'node:path';
import { error } from '../../shared/issues';
import { parseState } from '../../shared/parseDocument';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import type { ScanSummary } from '../../shared/verifyReport';
import type { DestinationInspection } from './inspectDestination';
import { readRegularFileSync } from './regularFile';

/**
 * An inspection as it crosses from a worker to the main thread: the state travels as its text and
 * is parsed there once with JSON.parse (cheaper to send than two object graphs, and zod already
 * checked it here).
 */
export type InspectionWire = Omit<DestinationInspection, 'stateJson' | 'state'> & { stateJsonText?: string };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The state file only if it is a regular file (regularFile.ts): never a link, never a FIFO or device. */
function readStateFile(file: string): { kind: 'missing' } | { kind: 'not_a_file'; what: string } | { kind: 'bytes'; bytes: Buffer } {
  const read = readRegularFileSync(file);
  return read.kind === 'too_large' ? { kind: 'not_a_file', what: `${read.sizeBytes} bytes` } : read;
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
  const staging = names.includes(STAGING_DIR_NAME);
  const interrupted = staging
    ? [
        error(
          [STAGING_DIR_NAME],
          'interrupted',
          `a replace was interrupted: ${STAGING_DIR_NAME} was left behind; a forced replace clears it`,
        ),
      ]
    : [];
  if (read.kind === 'missing')
    return { inspection: { path: dir, status: hasContent ? 'unmanaged' : 'empty', issues: interrupted, hasContent } };
  if (read.kind === 'not_a_file') {
    return {
      inspection: {
        path: dir,
        status: 'invalid',
        hasContent,
        issues: [...interrupted, error([], 'state_not_a_file', `${stateFile} is ${read.what}, not a state file`)],
      },
    };
  }

  const text = decodeUtf8(read.bytes);
  const parsed = parseState(text ?? read.bytes);
  const inspection: InspectionWire = {
    path: dir,
    status: parsed.status,
    issues: [...interrupted, ...parsed.issues],
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
