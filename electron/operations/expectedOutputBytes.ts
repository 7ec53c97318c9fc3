// operations/: may be imported by service/ and cli/. The expected bytes of a recorded output for the
// content diff: replace/expectedBytes.ts proves them from the source bundle (a bundle directory or
// its manifest.json), and this says in words where they came from. Read-only; never guesses: bytes
// that are not proven are an error with the reason.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Result } from '../../shared/result';
import type { OutputRecord, State } from '../../shared/stateSchema';
import { expectedOutputBytes, type ExpectedBytesProblem } from '../replace/expectedBytes';

export interface ProvenBytes {
  bytes: Buffer;
  /** Where the bytes came from, for people. */
  provenance: string;
}

/** The bundle directory of a source given as a directory or as its manifest.json. */
async function bundleDirOf(sourcePath: string): Promise<string> {
  const resolved = path.resolve(sourcePath);
  const stat = await fs.stat(resolved).catch(() => undefined);
  return stat?.isFile() ? path.dirname(resolved) : resolved;
}

export async function expectedBytesOf(
  sourcePath: string,
  state: State,
  record: OutputRecord,
): Promise<Result<ProvenBytes, ExpectedBytesProblem>> {
  const proven = await expectedOutputBytes(record, await bundleDirOf(sourcePath), state.source.manifest);
  if (!proven.ok) return proven;
  const { bytes, origin, sourceFile } = proven.value;
  const provenance =
    origin === 'source_file'
      ? `expected bytes: the source file ${sourceFile}, whose sha256 equals the recorded one`
      : `expected bytes: regenerated from ${sourceFile} with this app's ${record.transform ?? 'renderer'}, which hashes to the recorded sha256`;
  return { ok: true, value: { bytes, provenance } };
}
