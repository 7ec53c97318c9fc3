// Publishing: from a source bundle to the outputs and the new state a replace writes. Every source
// file is checked against its manifest before its bytes are used (sourceFile.ts). Never writes to
// the disk itself: apply does, through FsOps. `manifest.json` is never an output (the manifest
// schema reserves it).

import path from 'node:path';
import type { Manifest, ManifestFile } from '../../shared/manifestSchema';
import { newStateIssues } from './newStateCheck';
import type { PlanRefusal } from '../../shared/plan';
import { type Result, failed } from '../../shared/result';
import { baseUrlProblem, choosePrimaryOutput, outputRuleFor, outputUrl } from '../../shared/publishRules';
import { STATE_FILE_NAME, type OutputRecord, type State } from '../../shared/stateSchema';
import { APP_VERSION } from '../engine/appVersion';
import {
  checkSourceFileUnread,
  isStreamedSource,
  readVerifiedSourceFile,
  sha256Of,
  verifySourceFile,
  type FolderRealPaths,
} from './sourceFile';
import { timeSlicer } from './timeSlice';
import { markdownToHtml } from './markdownToHtml';

const refusal = failed;

/** The bytes of the output a verified source file becomes. Deterministic. */
export function outputBytesFor(file: ManifestFile, sourceBytes: Buffer): Buffer {
  const rule = outputRuleFor(file.path);
  if (rule.kind === 'source') return sourceBytes;
  const fallbackTitle = path.posix.basename(file.path, '.md');
  return Buffer.from(markdownToHtml(sourceBytes.toString('utf8'), fallbackTitle), 'utf8');
}

/**
 * Outputs' bytes as planning verified and rendered them, by output path, each with the sha256 the
 * plan proved for exactly those bytes (the manifest's, checked against them, or their own hash once
 * rendered), for an apply that follows at once in the same process (`replace --yes`): it stages them
 * instead of reading and hashing the source again (stageOutputs.ts). Never crosses a process or the
 * API: the service keeps it beside the plan it made. Filled up to VERIFIED_KEPT_MAX_BYTES.
 */
export type VerifiedOutputs = Map<string, VerifiedOutput>;

export interface VerifiedOutput {
  bytes: Buffer;
  sha256: string;
}

/** What planning keeps for the apply, at most: as much as the apply's own verify step keeps. */
export const VERIFIED_KEPT_MAX_BYTES = 256 * 1024 * 1024;

export interface PublicationInput {
  bundleRealPath: string;
  manifest: Manifest;
  pipelineId: string;
  destinationId: string;
  publishedAt: string;
  baseUrl?: string;
  /** Configured primary output path (link policy); default policy when absent. */
  primary?: string;
  /**
   * Filled with the outputs' verified bytes (VerifiedOutputs), for an apply that follows at once. A
   * large file published as it is is then checked but not hashed here: that apply hashes it as it
   * copies it, and fails before anything old is touched when it is not the manifest's.
   */
  keep?: VerifiedOutputs;
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
  let keptBytes = 0;
  const folders: FolderRealPaths = new Map();
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
    let sha256 = file.sha256;
    let size = file.size;
    if (isStreamedSource(file)) {
      // Published as it is and too large to keep: checked in chunks, never held (apply copies it the
      // same way); applied at once, hashed only by that copy.
      const verified = input.keep
        ? await checkSourceFileUnread(input.bundleRealPath, file)
        : await verifySourceFile(input.bundleRealPath, file);
      if (!verified.ok) return verified;
    } else {
      const read = await readVerifiedSourceFile(input.bundleRealPath, file, folders);
      if (!read.ok) return read;
      const bytes = outputBytesFor(file, read.value);
      // A file published as it is has the bytes just verified against the manifest's sha256: not hashed twice.
      if (bytes !== read.value) sha256 = sha256Of(bytes);
      size = bytes.length;
      if (input.keep && (keptBytes += size) <= VERIFIED_KEPT_MAX_BYTES) input.keep.set(rule.path, { bytes, sha256 });
    }
    const record: OutputRecord = { path: rule.path, kind: rule.kind, source_path: file.path, sha256, size };
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
  const issues = newStateIssues(state);
  if (issues) {
    return refusal('invalid_new_state', `the new state would not be valid: ${issues.map((issue) => issue.message).join('; ')}`, {
      issues,
    });
  }
  return { ok: true, value: { outputs, state } };
}

/** The bytes of the state file as apply writes them. */
export function stateFileBytes(state: State): Buffer {
  return Buffer.from(`${JSON.stringify(state, null, 2)}\n`, 'utf8');
}
