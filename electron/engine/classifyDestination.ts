// The one classifier of a destination (CONTRACT.md: destination status): a pure function over the
// facts a reader found on disk. Two readers feed it, inspectDestination.ts (asynchronous, the main
// thread) and scanReader.ts (synchronous, the scan's worker threads); neither holds a rule of its own.
// Never touches the disk, never hashes: the reader brings the bytes and their sha256. `destinationPath`
// is absolute, as the reader resolved it.

import path from 'node:path';
import { formatBytes } from '../../shared/byteSize';
import type { DestinationInspectionData } from '../../shared/inspection';
import { error, type Issue } from '../../shared/issues';
import { parseState } from '../../shared/parseDocument';
import { interruptedMessage, interruptedStagingNames, type StagingCandidate } from '../../shared/staging';
import { INVALID_STATE_SHOWN_MAX_BYTES, STATE_FILE_MAX_BYTES, STATE_FILE_NAME, type State } from '../../shared/stateSchema';

/** What the state file is, as the reader found it without following a link. */
export type StateFileFacts =
  | { kind: 'missing' }
  | { kind: 'not_a_file'; what: string }
  /** Larger than STATE_FILE_MAX_BYTES: not read at all. */
  | { kind: 'too_large'; sizeBytes: number }
  /** The open was refused (EACCES, EPERM); `why` completes "permission denied: …" with owner, mode and our uid when known. */
  | { kind: 'permission_denied'; why: string }
  /** `sha256` is absent when the reader was asked for no digests (inspectDestination.ts). */
  | { kind: 'bytes'; bytes: Uint8Array; sha256?: string }
  /**
   * Bytes a verify read and validated as managed before, proven unchanged since by their stat
   * signature (the verify stat cache, engine/reverify.ts): what their validation found, without them.
   * `json` holds only what the list's summary reads (the ids and the outputs).
   */
  | { kind: 'validated'; sha256?: string; issues: Issue[]; outputPaths: readonly string[]; json: Record<string, unknown> };

/** What a reader found at a destination bundle path. */
export type DestinationFacts =
  | { kind: 'missing' }
  | { kind: 'symlink' }
  | { kind: 'not_directory' }
  | {
      kind: 'directory';
      stateFile: StateFileFacts;
      /** Whether it holds anything besides the state file. */
      hasContent: boolean;
      /** The top-level folders that could be an apply's staging folder, with their markers (shared/staging.ts decides). */
      staging: StagingCandidate[];
      /** The folder's listing digest (listingDigest.ts), handed on as the inspection's. */
      listingDigest?: string;
    };

/** An inspection without the state's own forms; the classifier hands those over beside it. */
export type ClassifiedInspection = Omit<DestinationInspectionData, 'stateJson' | 'stateText'>;

export interface Classification {
  /** With `stateWithheld` set, a reader hands neither text nor json on (they are for the summary only). */
  inspection: ClassifiedInspection;
  /** The state file's text when its bytes are UTF-8. */
  text?: string;
  /** The state file as a JSON object, whenever it is one (also when invalid); for a `validated` one, its summary's part. */
  json?: Record<string, unknown>;
  /** The validated state, exactly when the status is managed from bytes read now (not from a `validated` state file). */
  state?: State;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function classifyDestination(destinationPath: string, facts: DestinationFacts): Classification {
  const dir = destinationPath;
  switch (facts.kind) {
    case 'missing':
      return { inspection: { path: dir, status: 'empty', issues: [], hasContent: false } };
    case 'symlink':
      return {
        inspection: {
          path: dir,
          status: 'unmanaged',
          hasContent: true,
          issues: [error([], 'destination_is_symlink', `${dir} is a symbolic link; destinations are never followed through links`)],
        },
      };
    case 'not_directory':
      return {
        inspection: {
          path: dir,
          status: 'unmanaged',
          hasContent: true,
          issues: [error([], 'destination_not_directory', `${dir} is not a directory`)],
        },
      };
  }
  const { stateFile, hasContent } = facts;
  const listed = facts.listingDigest === undefined ? {} : { listingDigest: facts.listingDigest };
  // A folder is a left-behind staging folder by its marker, never by its name alone: a valid state may
  // record outputs under such a name, so the recorded outputs are taken into account.
  const interruptedBy = (outputs: readonly { path: string }[] = []) => {
    const found = interruptedStagingNames(
      facts.staging,
      outputs.map((output) => output.path),
    );
    return found.length > 0 ? [error([found[0] as string], 'interrupted', interruptedMessage(found))] : [];
  };
  // Most folders hold no staging-named folder: nothing to filter, no arrays made for it.
  const interrupted = facts.staging.length === 0 ? [] : interruptedBy();
  if (stateFile.kind === 'missing')
    return { inspection: { path: dir, status: hasContent ? 'unmanaged' : 'empty', issues: interrupted, hasContent, ...listed } };
  if (stateFile.kind === 'not_a_file') {
    return {
      inspection: {
        path: dir,
        status: 'invalid',
        hasContent,
        ...listed,
        issues: [
          ...interrupted,
          error([], 'state_not_a_file', `${path.join(dir, STATE_FILE_NAME)} is ${stateFile.what}, not a state file`),
        ],
      },
    };
  }
  if (stateFile.kind === 'too_large') {
    const file = path.join(dir, STATE_FILE_NAME);
    return {
      inspection: {
        path: dir,
        status: 'invalid',
        hasContent,
        ...listed,
        stateWithheld: { sizeBytes: stateFile.sizeBytes },
        issues: [
          ...interrupted,
          error(
            [],
            'state_too_large',
            `${file} is ${formatBytes(stateFile.sizeBytes)} (${stateFile.sizeBytes} bytes), more than the ${formatBytes(STATE_FILE_MAX_BYTES)} this inspector reads: it was not parsed; a forced replace replaces it`,
          ),
        ],
      },
    };
  }
  if (stateFile.kind === 'permission_denied') {
    const file = path.join(dir, STATE_FILE_NAME);
    return {
      inspection: {
        path: dir,
        status: 'invalid',
        hasContent,
        ...listed,
        issues: [
          ...interrupted,
          error([], 'state_unreadable', `permission denied: ${file} cannot be read by the inspector (${stateFile.why})`),
        ],
      },
    };
  }
  if (stateFile.kind === 'validated') {
    // As for bytes that parse as managed, below: the same issues in the same order.
    const interruptedNow = facts.staging.length === 0 ? [] : interruptedBy(stateFile.outputPaths.map((output) => ({ path: output })));
    const stateSha256 = stateFile.sha256 === undefined ? {} : { stateSha256: stateFile.sha256 };
    return {
      inspection: { path: dir, status: 'managed', issues: [...interruptedNow, ...stateFile.issues], ...stateSha256, hasContent, ...listed },
      json: stateFile.json,
    };
  }
  // Decode once: the parser and the raw view share the text. Bytes that are not UTF-8 go to the
  // parser as bytes, so that it reports them.
  const text = decodeUtf8(stateFile.bytes);
  const parsed = parseState(text ?? stateFile.bytes);
  // Without a staging-named folder nothing is interrupted: no list of the outputs' paths to make.
  const interruptedNow = facts.staging.length === 0 ? [] : interruptedBy(parsed.status === 'managed' ? parsed.state.outputs : undefined);
  const issues = [...interruptedNow, ...parsed.issues];
  const stateSha256 = stateFile.sha256 === undefined ? {} : { stateSha256: stateFile.sha256 };
  const classification: Classification = {
    inspection: { path: dir, status: parsed.status, issues, ...stateSha256, hasContent, ...listed },
  };
  if (parsed.status === 'invalid' && stateFile.bytes.length > INVALID_STATE_SHOWN_MAX_BYTES)
    classification.inspection.stateWithheld = { sizeBytes: stateFile.bytes.length };
  if (text !== undefined) classification.text = text;
  if (parsed.json) classification.json = parsed.json;
  if (parsed.status === 'managed') classification.state = parsed.state;
  return classification;
}
