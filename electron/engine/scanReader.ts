// The scan's fast reader: the facts inspectDestination.ts reads, read with synchronous calls, for
// worker threads (where blocking is free and a promise per syscall costs ~9x the CPU), and handed to
// the same classifier (classifyDestination.ts): no rule lives here. Never follows a symbolic link,
// never opens a FIFO blocking.

import { existsSync, lstatSync, readdirSync, type Dirent } from 'node:fs';
import { hash } from 'node:crypto';
import path from 'node:path';
import { isCleanRelativePath } from '../../shared/cleanPath';
import { countIssues } from '../../shared/issues';
import { STATE_FILE_MAX_BYTES, STATE_FILE_NAME } from '../../shared/stateSchema';
import type { ScanSummary } from '../../shared/verifyReport';
import { classifyDestination, type DestinationFacts, type StateFileFacts } from './classifyDestination';
import type { DestinationInspection } from './inspectDestination';
import { isPermissionDenied, permissionDeniedWhy, readRegularFileSync, type RegularFileRead } from './regularFile';
import { listingDigest } from './listingDigest';
import { mayHoldSubfolders } from './subfolderCount';
import { stagingCandidates } from './stagingReader';

/**
 * An inspection as it crosses from a worker to the main thread: the state as its parsed JSON value
 * (`stateJson`), inside the outcome's JSON, so the main thread parses it once, with the outcome. As
 * a string of its text inside that JSON it was escaped there, unescaped here and parsed a second
 * time: two thirds of a sync scan's main thread at 100,000 destinations. Zod already checked it here.
 */
export type InspectionWire = Omit<DestinationInspection, 'state'>;

/**
 * The state file only if it is a regular file (regularFile.ts): never a link, never a FIFO or device,
 * never past the cap. Its entry in the listing just read is the first look (no lstat of its own).
 */
function readStateFile(file: string, listed?: Dirent): RegularFileRead | { kind: 'permission_denied'; why: string } {
  try {
    // Decoded, hashed and parsed before the next state is read, never kept: one buffer serves them all.
    return readRegularFileSync(file, { maxBytes: STATE_FILE_MAX_BYTES, reuseBuffer: true }, listed);
  } catch (cause) {
    if (isPermissionDenied(cause)) return { kind: 'permission_denied', why: permissionDeniedWhy(file) };
    throw cause;
  }
}

export interface SyncInspection {
  inspection: InspectionWire;
  json?: Record<string, unknown>;
  /** The destination's own listing, when it is a real directory: a verify walks on from it (judgeOutputs.ts verifyHere). */
  entries?: Dirent[];
}

/**
 * inspectDestination, synchronously, with the state as its JSON value. Throws only where it would reject.
 * `digests: false` leaves out `stateSha256` and `listingDigest` (a fingerprint's parts, as
 * inspectDestination's option): a status never needs them, only a verify result's freshness does.
 * `withState: false` leaves out the state (never added, then deleted: that turned every
 * inspection into a slow dictionary object before its JSON).
 * `entries: false` (with `digests: false`): the caller walks on from no listing (no verify), so the
 * folder is listed only where the status needs it (readFactsSync).
 * `settleContent: false`: `hasContent` is not settled where that costs a call of its own (a flat
 * folder with a state file, whose status does not depend on it; `access` was one call in seven of
 * a scan's destination): it reads true there, unchecked. For a caller that never reports it.
 */
export function inspectDestinationSync(
  destination: string,
  options: { digests?: boolean; withState?: boolean; entries?: boolean; settleContent?: boolean } = {},
): SyncInspection {
  const dir = path.resolve(destination);
  const digests = options.digests !== false;
  const { facts, entries, contentUnknown } = readFactsSync(dir, digests, digests || options.entries !== false);
  const classified = classifyDestination(dir, facts);
  const inspection: InspectionWire = classified.inspection;
  if (contentUnknown) inspection.hasContent = options.settleContent === false || hasContentBesideState(dir, classified.json);
  // The state travels exactly when it is a JSON object; never a withheld one (a huge invalid state
  // would cross threads twice for nothing).
  if (options.withState !== false && classified.json && !inspection.stateWithheld) inspection.stateJson = classified.json;
  const result: SyncInspection = classified.json ? { inspection, json: classified.json } : { inspection };
  if (entries) result.entries = entries;
  return result;
}

/**
 * What is at the destination, for the classifier: one listing (with file types, which costs the
 * same) answers three questions (state file, anything else, staging) and starts a verify's walk.
 * Without `list`, a folder with no subfolder (subfolderCount.ts) cannot hold a staging folder, and
 * with a state file there nothing else decides the status: the state file is read after an lstat
 * of its own, and `hasContent`, which is then only reported, is settled after the classifier
 * (contentUnknown). Listing costs ~3x an lstat (open, two getdents, close, an object per entry).
 */
function readFactsSync(
  dir: string,
  digests: boolean,
  list: boolean,
): { facts: DestinationFacts; entries?: Dirent[]; contentUnknown?: true } {
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  if (!stat) return { facts: { kind: 'missing' } };
  if (stat.isSymbolicLink()) return { facts: { kind: 'symlink' } };
  if (!stat.isDirectory()) return { facts: { kind: 'not_directory' } };
  if (!list && !mayHoldSubfolders(dir, stat)) {
    const read = readStateFile(childOf(dir, STATE_FILE_NAME));
    if (read.kind !== 'missing')
      return { facts: { kind: 'directory', stateFile: read, hasContent: false, staging: [] }, contentUnknown: true };
  }
  const entries = readdirSync(dir, { withFileTypes: true });
  const names = entries.map((entry) => entry.name);
  const stateEntry = entries.find((entry) => entry.name === STATE_FILE_NAME);
  const read = stateEntry ? readStateFile(path.join(dir, STATE_FILE_NAME), stateEntry) : { kind: 'missing' as const };
  const hasContent = names.some((name) => name !== STATE_FILE_NAME);
  const staging = stagingCandidates(dir, names);
  // One-shot hash: no Hash object per destination.
  const stateFile: StateFileFacts =
    read.kind === 'bytes' && digests ? { kind: 'bytes', bytes: read.bytes, sha256: `sha256:${hash('sha256', read.bytes, 'hex')}` } : read;
  const listed = digests ? { listingDigest: listingDigest(names, stat.mtimeMs) } : {};
  return { facts: { kind: 'directory', stateFile, hasContent, staging, ...listed }, entries };
}

/** A name in a resolved folder: what path.join gives, without its normalizing pass (a join per file call). */
function childOf(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? `${dir}${name}` : `${dir}${path.sep}${name}`;
}

/**
 * Whether the folder holds anything besides its state file, when it was not listed: yes when the
 * first recorded output's top entry is there, else from a listing of names.
 */
function hasContentBesideState(dir: string, json: Record<string, unknown> | undefined): boolean {
  const outputs = json?.outputs;
  const first: unknown = Array.isArray(outputs) && outputs.length > 0 ? (outputs[0] as { path?: unknown } | null)?.path : undefined;
  if (typeof first === 'string' && isCleanRelativePath(first)) {
    const slash = first.indexOf('/');
    const top = slash === -1 ? first : first.slice(0, slash);
    // existsSync follows a link, so a dangling one says no and the listing below decides; it makes no Stats.
    if (top !== STATE_FILE_NAME && existsSync(childOf(dir, top))) return true;
  }
  return readdirSync(dir).some((name) => name !== STATE_FILE_NAME);
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
  // Exact counts, also when the list is capped: a summary issue counts as the issues it stands for.
  const { errors, warnings } = countIssues(inspection.issues);
  const summary: ScanSummary = {
    status: inspection.status,
    outputCount: Array.isArray(json?.outputs) ? json.outputs.length : 0,
    errorCount: errors,
    warningCount: warnings,
  };
  const pipelineId = stringField(json, 'pipeline_id');
  const destinationId = stringField(json, 'destination_id');
  const publishedAt = stringField(json, 'published_at');
  if (pipelineId !== undefined) summary.pipeline_id = pipelineId;
  if (destinationId !== undefined) summary.destination_id = destinationId;
  if (publishedAt !== undefined) summary.published_at = publishedAt;
  return summary;
}
