// The outputs that the state on disk records, as the apply's check of a normal replace reads them:
// parseState over the state file's bytes. A plan parses those bytes while it decides (inspect), and
// an apply that follows reads them again; the plan's parse is remembered with a copy of the bytes it
// parsed, and reused only for bytes equal to them, compared whole (parseState is pure: equal bytes,
// equal verdict). Any other bytes are parsed afresh. One plan's worth is held; nothing is trusted
// from a digest, a size or a time. Never reads or writes the disk.

import { parseState } from '../../shared/parseDocument';
import type { State } from '../../shared/stateSchema';

let remembered: { bytes: Buffer; paths: readonly string[] } | undefined;

/** Keeps what a plan found in a managed state's bytes, for an apply of the same bytes. */
export function rememberRecordedOutputs(bytes: Uint8Array, state: State): void {
  // A copy: the caller's buffer is not ours to hold, nor proof of anything once it could change.
  remembered = { bytes: Buffer.from(bytes), paths: Object.freeze(state.outputs.map((output) => output.path)) };
}

/** The recorded output paths of these state bytes: none unless they are a valid, managed state. */
export function recordedOutputPaths(bytes: Buffer): readonly string[] {
  if (remembered !== undefined && remembered.bytes.equals(bytes)) return remembered.paths;
  const parsed = parseState(bytes);
  return parsed.status === 'managed' ? parsed.state.outputs.map((output) => output.path) : [];
}
