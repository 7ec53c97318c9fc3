// Publishing: from a source bundle to the outputs and the new state a replace writes.
// Every source file is checked against its manifest (size and sha256, a regular file, inside the
// bundle, no symbolic link on the way) before its bytes are used; a FIFO or device is never opened
// (engine/regularFile.ts: lstat first, O_NONBLOCK, fstat again), so planning cannot hang on one. Never writes to the disk itself:
// apply does, through FsOps. `manifest.json` is never an output (the manifest schema reserves it).

import { promises as fs, realpathSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Manifest, ManifestFile } from '../../shared/manifestSchema';
import { parseState } from '../../shared/parseDocument';
import type { PlanRefusal } from '../../shared/plan';
import { problem, type Result } from '../../shared/result';
import { baseUrlProblem, choosePrimaryOutput, outputRuleFor, outputUrl } from '../../shared/publishRules';
import { STATE_FILE_NAME, type OutputRecord, type State } from '../../shared/stateSchema';
import { APP_VERSION } from '../engine/appVersion';
import { readRegularFile, readRegularFileSync, type RegularFileRead } from '../engine/regularFile';
import { timeSlicer } from './timeSlice';
import { markdownToHtml } from './markdownToHtml';

export function sha256Of(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

function refusal(code: string, message: string, details?: Record<string, unknown>): { ok: false; error: PlanRefusal } {
  return { ok: false, error: problem(code, message, details) };
}

function errnoCode(cause: unknown): string {
  return (cause as NodeJS.ErrnoException | undefined)?.code ?? String(cause);
}

/** Errors that say the file cannot be read by us (a refusal naming it); others are I/O failures, thrown. */
const UNREADABLE = new Set(['EACCES', 'EPERM']);

/**
 * Source files up to this size are read with synchronous calls (no thread hop, a quarter of the CPU
 * of fs.promises: docs/performance.md); a larger one asynchronously, so one big read never holds the
 * event loop. Callers slice their loops (timeSlice.ts).
 */
const SYNC_READ_MAX_BYTES = 1024 * 1024;

function realpathOrUndefined(folder: string, sync: boolean): Promise<string | undefined> | string | undefined {
  if (!sync) return fs.realpath(folder).catch(() => undefined);
  try {
    return realpathSync.native(folder);
  } catch {
    return undefined;
  }
}

/** A source file's bytes, checked against its manifest entry, or why they cannot be used. */
export type BytesRead = Result<Buffer, PlanRefusal>;

/**
 * Reads one manifest file from the bundle and checks it against its manifest entry.
 * `bundleRealPath` must be the bundle's realpath: the file's folder must resolve to exactly
 * bundle + its relative folder, so no symbolic link anywhere on the way is accepted.
 */
export async function readVerifiedSourceFile(bundleRealPath: string, file: ManifestFile): Promise<BytesRead> {
  const full = path.join(bundleRealPath, ...file.path.split('/'));
  const details = { file: full, path: file.path };
  const expectedParent = path.dirname(full);
  const sync = file.size <= SYNC_READ_MAX_BYTES;
  const parentReal = await realpathOrUndefined(expectedParent, sync);
  if (parentReal === undefined) return refusal('source_missing_file', `source file ${full} is missing`, details);
  if (parentReal !== expectedParent) {
    return refusal(
      'source_outside_bundle',
      `source file ${full} is reached through a symbolic link and may lie outside the bundle`,
      details,
    );
  }
  // The one safe read (engine/regularFile.ts): lstat first, so a FIFO that would block a reading
  // open until a writer came is refused unopened; then a no-follow, non-blocking open and an fstat of
  // the same file. A file larger than its manifest says is refused before it is read.
  let read: RegularFileRead;
  try {
    read = sync ? readRegularFileSync(full, { maxBytes: file.size }) : await readRegularFile(full, { maxBytes: file.size });
  } catch (cause) {
    const code = errnoCode(cause);
    if (!UNREADABLE.has(code)) throw cause;
    return refusal('source_unreadable', `source file ${full} cannot be read (${code})`, details);
  }
  if (read.kind === 'missing') return refusal('source_missing_file', `source file ${full} is missing`, details);
  if (read.kind === 'not_a_file' && read.isSymlink)
    return refusal('source_is_symlink', `source file ${full} is a symbolic link; source files must be regular files`, details);
  if (read.kind === 'not_a_file')
    return refusal('source_not_a_file', `source file ${full} is not a regular file (a folder, FIFO, socket or device)`, details);
  const actualSize = read.kind === 'too_large' ? read.sizeBytes : read.bytes.length;
  if (read.kind === 'too_large' || actualSize !== file.size) {
    return refusal('source_mismatch', `source file ${full} has ${actualSize} bytes, but its manifest says ${file.size}`, {
      ...details,
      expectedSize: file.size,
      actualSize,
    });
  }
  const actual = sha256Of(read.bytes);
  if (actual !== file.sha256) {
    return refusal(
      'source_mismatch',
      `source file ${full} does not match its manifest: sha256 is ${actual}, the manifest says ${file.sha256}`,
      { ...details, expectedSha256: file.sha256, actualSha256: actual },
    );
  }
  return { ok: true, value: read.bytes };
}

/** The bytes of the output a verified source file becomes. Deterministic. */
export function outputBytesFor(file: ManifestFile, sourceBytes: Buffer): Buffer {
  const rule = outputRuleFor(file.path);
  if (rule.kind === 'source') return sourceBytes;
  const fallbackTitle = path.posix.basename(file.path, '.md');
  return Buffer.from(markdownToHtml(sourceBytes.toString('utf8'), fallbackTitle), 'utf8');
}

export interface PublicationInput {
  bundleRealPath: string;
  manifest: Manifest;
  pipelineId: string;
  destinationId: string;
  publishedAt: string;
  baseUrl?: string;
  /** Configured primary output path (link policy); default policy when absent. */
  primary?: string;
}

/** What a replace writes: the outputs and the state that describes them. */
export interface PublishedOutputs {
  outputs: OutputRecord[];
  state: State;
}

export type Publication = Result<PublishedOutputs, PlanRefusal>;

/** The contract reserves only the state file's name; a staging folder takes a name no output uses. */
function isReservedOutputPath(outputPath: string): boolean {
  return outputPath === STATE_FILE_NAME;
}

/** Verifies every source file, renders the outputs, and builds the state that describes them. */
export async function preparePublication(input: PublicationInput): Promise<Publication> {
  if (input.baseUrl !== undefined) {
    const problem = baseUrlProblem(input.baseUrl);
    if (problem) return refusal('invalid_base_url', `base URL "${input.baseUrl}" ${problem}`, { field: 'base_url' });
  }
  const outputs: OutputRecord[] = [];
  const sourceOfOutput = new Map<string, string>();
  const slice = timeSlicer();
  for (const file of input.manifest.files) {
    await slice.yield();
    const rule = outputRuleFor(file.path);
    if (isReservedOutputPath(rule.path)) {
      return refusal('reserved_output_path', `source file "${file.path}" would become "${rule.path}", a name the destination reserves`, {
        path: file.path,
      });
    }
    const other = sourceOfOutput.get(rule.path);
    if (other !== undefined) {
      return refusal('output_collision', `source files "${other}" and "${file.path}" would both become the output "${rule.path}"`, {
        path: rule.path,
        sources: [other, file.path],
      });
    }
    sourceOfOutput.set(rule.path, file.path);
    const read = await readVerifiedSourceFile(input.bundleRealPath, file);
    if (!read.ok) return read;
    const bytes = outputBytesFor(file, read.value);
    // A file published as it is has the bytes just verified against the manifest's sha256: not hashed twice.
    const sha256 = bytes === read.value ? file.sha256 : sha256Of(bytes);
    const record: OutputRecord = { path: rule.path, kind: rule.kind, source_path: file.path, sha256, size: bytes.length };
    if (rule.transform) record.transform = rule.transform;
    if (input.baseUrl !== undefined) record.url = outputUrl(input.baseUrl, rule.path);
    outputs.push(record);
  }
  // A file and a folder cannot share a path: "x.md" becomes "x.html", which "x.html/a" needs as a folder.
  for (const output of outputs) {
    const segments = output.path.split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      const folder = segments.slice(0, depth).join('/');
      const other = sourceOfOutput.get(folder);
      if (other !== undefined) {
        return refusal(
          'output_collision',
          `source file "${other}" would become the output "${folder}", which "${output.source_path}" needs as a folder`,
          { path: folder, sources: [other, output.source_path] },
        );
      }
    }
  }
  const primary = choosePrimaryOutput(outputs, input.primary);
  if (!primary.ok) return refusal('primary_not_an_output', primary.error, { field: 'primary' });

  const state: State = {
    schema_version: 1,
    distributor_version: APP_VERSION,
    pipeline_id: input.pipelineId,
    destination_id: input.destinationId,
    published_at: input.publishedAt,
    source: { manifest: input.manifest },
    outputs,
  };
  // A primary link must be an absolute URL; without a base_url there is none to give.
  if (primary.value !== undefined && input.baseUrl !== undefined) state.links = { primary_url: outputUrl(input.baseUrl, primary.value) };

  // We hold our own output to the contract: a state we could not read back is never written.
  const check = parseState(JSON.stringify(state));
  if (check.status !== 'managed') {
    return refusal('invalid_new_state', `the new state would not be valid: ${check.issues.map((issue) => issue.message).join('; ')}`, {
      issues: check.issues,
    });
  }
  return { ok: true, value: { outputs, state } };
}

/** The bytes of the state file as apply writes them. */
export function stateFileBytes(state: State): Buffer {
  return Buffer.from(`${JSON.stringify(state, null, 2)}\n`, 'utf8');
}
