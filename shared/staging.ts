// The working folder a replace makes inside the destination, and the one rule that tells an
// interrupted replace from an ordinary folder. The contract reserves no name but `.distributor.json`,
// so a source may publish `.distributor-staging/…` itself: a folder is an interrupted replace only
// when it carries our marker file (valid JSON of the schema below) and no recorded output of the
// valid state lies in it. Pure: the reader that fetches the marker text lives in electron/engine.
//
// Layout of a staging folder (created mode 0700 by apply):
//   <staging>/staging.json   the marker (written first, removed last)
//   <staging>/files/…        the new outputs, before they are moved into place
//   <staging>/state.json.tmp the new state, before its rename to .distributor.json
//   <staging>/trash/…        (forced replace) the old entries, moved here before they are deleted

import type { z } from 'zod';
import { schemasOnDemand } from './schemasOnDemand';
import type { stagingMarkerSchema } from './stagingMarkerSchema';

/** The preferred staging name; when it is taken (by an output, a leftover, anything) apply uses `-<hex>`. */
export const STAGING_DIR_NAME = '.distributor-staging';
export const STAGING_MARKER_NAME = 'staging.json';
export const STAGING_FILES_DIR = 'files';
export const STAGING_TRASH_DIR = 'trash';
export const STAGING_STATE_TEMP = 'state.json.tmp';
export const STAGING_MARKER_KIND = 'distributor-inspector-staging' satisfies StagingMarker['kind'];
/** Markers are tiny; anything larger is not ours and is not read. */
export const STAGING_MARKER_MAX_BYTES = 64 * 1024;

const STAGING_NAME_PATTERN = /^\.distributor-staging(?:-[0-9a-f]{8,32})?$/;

/** Whether a top-level entry name could be a staging folder (the marker decides whether it is one). */
export function isStagingFolderName(name: string): boolean {
  return STAGING_NAME_PATTERN.test(name);
}

export type StagingMarker = z.infer<typeof stagingMarkerSchema>;

/** The marker's bytes as apply writes them. */
export function stagingMarkerText(marker: StagingMarker): string {
  return `${JSON.stringify(marker, null, 2)}\n`;
}

/**
 * The marker, when the text is one; undefined for anything else (never throws). Its schema is
 * loaded on demand: only a destination with a staging-named folder has a marker to read.
 */
export function parseStagingMarker(text: string | undefined): StagingMarker | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = schemasOnDemand().stagingMarkerSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a recorded output is the folder `name` or lies in it: then the folder is published content. */
export function isRecordedFolder(name: string, recordedOutputPaths: readonly string[]): boolean {
  return recordedOutputPaths.some((output) => output === name || output.startsWith(`${name}/`));
}

export interface StagingCandidate {
  name: string;
  /** The text of `<name>/staging.json` when it is a small regular file inside a real folder; else undefined. */
  markerText: string | undefined;
}

/**
 * THE rule: the top-level folders that are interrupted replaces. A candidate counts only with a valid
 * marker and only when no recorded output of the valid state lies in it (pass [] when there is none).
 */
export function interruptedStagingNames(candidates: readonly StagingCandidate[], recordedOutputPaths: readonly string[]): string[] {
  return candidates
    .filter((candidate) => isStagingFolderName(candidate.name))
    .filter((candidate) => parseStagingMarker(candidate.markerText) !== undefined)
    .filter((candidate) => !isRecordedFolder(candidate.name, recordedOutputPaths))
    .map((candidate) => candidate.name)
    .sort();
}

/** The message of the `interrupted` issue, one wording for inspect, scan and the plan refusal. */
export function interruptedMessage(names: readonly string[]): string {
  const list = names.join(', ');
  return `a replace was interrupted: its staging folder ${list} was left behind; Discard staging (or a forced replace) clears it`;
}

/**
 * A staging name that nothing uses: not an existing entry, not an output (or a folder of one) of the
 * old state or the new plan. `random` gives hex digits (injected so that this stays pure).
 */
/** The source a restore's own staging marker names: how a later restore of the same backup knows the folder for its own. */
export const restoreStagingSourceId = (backupId: string) => `restore of backup ${backupId}`;

export function chooseStagingName(taken: (name: string) => boolean, random: () => string): string {
  if (!taken(STAGING_DIR_NAME)) return STAGING_DIR_NAME;
  for (let attempt = 0; attempt < 100; attempt++) {
    const name = `${STAGING_DIR_NAME}-${random()}`;
    if (isStagingFolderName(name) && !taken(name)) return name;
  }
  throw new Error('no free staging name after 100 attempts');
}
