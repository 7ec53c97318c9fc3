// Finds the interrupted replaces of one destination: reads the marker of each top-level folder whose
// name could be a staging folder and applies shared/staging.ts's rule. Synchronous and tiny (a marker
// is a few hundred bytes), so both inspect and the scan reader call it the same way.
// Never follows a link and never blocks on a FIFO: the marker is read through regularFile.ts.

import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { error, type Issue } from '../../shared/issues';
import {
  interruptedMessage,
  interruptedStagingNames,
  isStagingFolderName,
  STAGING_MARKER_MAX_BYTES,
  STAGING_MARKER_NAME,
  type StagingCandidate,
} from '../../shared/staging';
import { readRegularFileSync } from './regularFile';

/** The marker's text, or undefined when it is missing, not a small regular file, or unreadable. */
function readMarker(folder: string): string | undefined {
  try {
    if (!lstatSync(folder).isDirectory()) return undefined;
    const read = readRegularFileSync(path.join(folder, STAGING_MARKER_NAME), { maxBytes: STAGING_MARKER_MAX_BYTES });
    return read.kind === 'bytes' ? read.bytes.toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** The top-level folders of `dir` that could be staging folders, each with its marker's text (names: its listing). */
export function stagingCandidates(dir: string, names: readonly string[] = readdirSync(dir)): StagingCandidate[] {
  return names.filter(isStagingFolderName).map((name) => ({ name, markerText: readMarker(path.join(dir, name)) }));
}

/** The names of the interrupted staging folders in `dir` (names: its listing, when the caller has one). */
export function interruptedStagingFolders(
  dir: string,
  recordedOutputPaths: readonly string[] = [],
  names: readonly string[] = readdirSync(dir),
): string[] {
  return interruptedStagingNames(stagingCandidates(dir, names), recordedOutputPaths);
}

/** The `interrupted` issue (or none) for a destination: one call for inspect and for the scan reader. */
export function interruptedIssues(dir: string, outputs: readonly { path: string }[] = [], names?: readonly string[]): Issue[] {
  const found = interruptedStagingFolders(
    dir,
    outputs.map((output) => output.path),
    names,
  );
  return found.length > 0 ? [error([found[0] as string], 'interrupted', interruptedMessage(found))] : [];
}
