// The asynchronous reader of one destination (the main thread): reads the facts from disk and hands
// them to classifyDestination.ts, which holds the rules (CONTRACT.md: destination status). Reads the
// state file once; never follows a symbolic link, neither the destination nor its state file.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { DestinationInspectionData } from '../../shared/inspection';
import { STATE_FILE_MAX_BYTES, STATE_FILE_NAME, type State } from '../../shared/stateSchema';
import { classifyDestination, type DestinationFacts } from './classifyDestination';
import { isPermissionDenied, permissionDeniedWhy, readRegularFile, type RegularFileRead } from './regularFile';
import { stagingCandidates } from './stagingReader';

/** The inspection as data (shared/inspection.ts), plus the validated state when managed. */
export interface DestinationInspection extends DestinationInspectionData {
  state?: State;
  /** The state file's bytes as read and parsed, when asked (`keepStateBytes`) and the state is valid. */
  stateBytes?: Buffer;
}

export interface InspectOptions {
  includeText?: boolean;
  /**
   * False: no `stateSha256` and no `listingDigest` (the parts of a fingerprint), and node:crypto is
   * not loaded (stateDigests.ts): the CLI's inspect prints neither, and the load was ~4 ms of its start.
   */
  digests?: boolean;
  /** True: a valid state's bytes come back as `stateBytes` (a plan's apply reads them again: replace/recordedOutputs.ts). */
  keepStateBytes?: boolean;
}

function errnoCode(cause: unknown): string | undefined {
  return (cause as NodeJS.ErrnoException | undefined)?.code;
}

/** Reads the state file only if it is a regular file (regularFile.ts): never a link, never a FIFO or device, never past the cap. */
async function readStateFile(file: string): Promise<RegularFileRead | { kind: 'permission_denied'; why: string }> {
  try {
    return await readRegularFile(file, { maxBytes: STATE_FILE_MAX_BYTES });
  } catch (cause) {
    if (isPermissionDenied(cause)) return { kind: 'permission_denied', why: permissionDeniedWhy(file) };
    throw cause;
  }
}

export async function inspectDestination(destination: string, options: InspectOptions = {}): Promise<DestinationInspection> {
  const dir = path.resolve(destination);
  const read = await readFacts(dir, options.digests !== false);
  const { facts, bytes } = read;
  const classified = classifyDestination(dir, facts);
  const inspection: DestinationInspection = { ...classified.inspection };
  if (classified.state) inspection.state = classified.state;
  if (classified.state && options.keepStateBytes && bytes) inspection.stateBytes = bytes;
  // A withheld state (huge and invalid) is summed up by its issues; its text and JSON stay here.
  if (inspection.stateWithheld) return inspection;
  if (classified.json) inspection.stateJson = classified.json;
  if (options.includeText && bytes) inspection.stateText = classified.text ?? Buffer.from(bytes).toString('utf8');
  return inspection;
}

/** What is at the destination, for the classifier: lstat, the state file read once, one listing, the staging folder. */
async function readFacts(dir: string, digests: boolean): Promise<{ facts: DestinationFacts; bytes?: Buffer }> {
  const stat = await fs.lstat(dir).catch((cause) => (errnoCode(cause) === 'ENOENT' ? undefined : Promise.reject(cause)));
  if (!stat) return { facts: { kind: 'missing' } };
  if (stat.isSymbolicLink()) return { facts: { kind: 'symlink' } };
  if (!stat.isDirectory()) return { facts: { kind: 'not_directory' } };
  const read = await readStateFile(path.join(dir, STATE_FILE_NAME));
  const names = await fs.readdir(dir);
  const hasContent = names.some((name) => name !== STATE_FILE_NAME);
  const staging = stagingCandidates(dir, names);
  const digest = digests ? await import('./stateDigests') : undefined;
  const listed = digest ? { listingDigest: digest.listingDigest(names, stat.mtimeMs) } : {};
  if (read.kind !== 'bytes') return { facts: { kind: 'directory', stateFile: read, hasContent, staging, ...listed } };
  const sha256 = digest ? { sha256: digest.sha256Of(read.bytes) } : {};
  return {
    facts: { kind: 'directory', stateFile: { kind: 'bytes', bytes: read.bytes, ...sha256 }, hasContent, staging, ...listed },
    bytes: read.bytes,
  };
}
