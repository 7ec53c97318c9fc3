// operations/: may be imported by service/ and cli/. The content diff use case, written once for the
// API and the CLI: one output path of a destination, its bytes on disk against either the bytes its
// state records (proven from the source bundle: replace/expectedBytes.ts) or the bytes publishing the
// source now would write (replace/publish.ts). Answers the two sides as data (text when text and
// small, else size and hash), the verdict and the first differing offset; the line diff itself is
// drawn from that by shared/contentDiff/textDiff.ts. Read-only; never follows a link out of the
// destination (readDestinationFile.ts); an unprovable side is said to be so, never guessed.

import { promises as fs } from 'node:fs';
import { cleanPathProblem } from '../../shared/cleanPath';
import { decodeText, firstDifferingOffset, TEXT_DIFF_LIMIT_BYTES } from '../../shared/contentDiff/contentBytes';
import type { ContentDiff, DiffAgainst, DiffSide } from '../../shared/contentDiff/contentDiffSchema';
import { hasErrors } from '../../shared/issues';
import { outputRuleFor } from '../../shared/publishRules';
import { problem, type Problem, type Result } from '../../shared/result';
import type { OutputRecord } from '../../shared/stateSchema';
import { inspectDestination } from '../engine/inspectDestination';
import { readSource } from '../engine/readSource';
import { outputBytesFor } from '../replace/publish';
import { readVerifiedSourceFile, sha256Of } from '../replace/sourceFile';
import { expectedBytesOf } from './expectedOutputBytes';
import { readDestinationFile, type DestinationFileRead } from './readDestinationFile';

export interface DiffOutputRequest {
  destinationPath: string;
  /** The output path, relative to the destination, `/`-separated. */
  path: string;
  /** Default: `recorded` when the destination's valid state records the path, else `publish`. */
  against?: DiffAgainst;
  /** A source bundle directory or its manifest.json. */
  sourcePath?: string;
}

/** Why no diff could be made at all: `refused` (the path), `not_found` (nothing to diff), `invalid_source`. */
export type DiffOutputProblem = Problem & { code: 'refused' | 'not_found' | 'invalid_source' };

const fail = (
  code: DiffOutputProblem['code'],
  message: string,
  details?: Record<string, unknown>,
): { ok: false; error: DiffOutputProblem } => ({
  ok: false,
  error: problem(code, message, details) as DiffOutputProblem,
});

/** Bytes as a side: text when UTF-8 without NUL and within the limit, else their size and hash only. */
export function sideOfBytes(bytes: Buffer, sha256 = sha256Of(bytes)): DiffSide {
  if (bytes.length > TEXT_DIFF_LIMIT_BYTES) return { presence: 'file', sizeBytes: bytes.length, sha256, noText: 'too_large' };
  const text = decodeText(bytes);
  return text === undefined
    ? { presence: 'file', sizeBytes: bytes.length, sha256, noText: 'binary' }
    : { presence: 'file', sizeBytes: bytes.length, sha256, text };
}

function sideOfDisk(read: DestinationFileRead): DiffSide {
  switch (read.kind) {
    case 'missing':
      return { presence: 'absent', message: 'missing on disk' };
    case 'not_a_file':
      return { presence: 'not_a_file', what: read.what };
    case 'unreadable':
      return { presence: 'unavailable', reason: problem('unreadable', `the file on disk ${read.message}`) };
    default:
      return read.bytes
        ? sideOfBytes(read.bytes, read.sha256)
        : { presence: 'file', sizeBytes: read.sizeBytes, sha256: read.sha256, noText: 'too_large' };
  }
}

function statusOf(record: OutputRecord, read: DestinationFileRead): ContentDiff['status'] {
  if (read.kind === 'missing') return 'missing';
  if (read.kind === 'not_a_file') return 'not_a_file';
  if (read.kind === 'unreadable') return 'hash_mismatch';
  if (read.sizeBytes !== record.size) return 'size_mismatch';
  return read.sha256 === record.sha256 ? 'ok' : 'hash_mismatch';
}

/** Where two sides' bytes first differ: from the streamed read, or from both sets of bytes. */
function offsetOf(disk: DestinationFileRead, other: Buffer | undefined): number | undefined {
  if (disk.kind !== 'file' || other === undefined) return undefined;
  if (disk.bytes) return firstDifferingOffset(disk.bytes, other);
  return disk.firstDifferingOffset;
}

/** The bytes publishing the source now would write at `outputPath`, or why there are none. */
async function publishedSide(
  sourcePath: string,
  outputPath: string,
): Promise<Result<{ bytes?: Buffer; side: DiffSide; bundleDir: string; provenance: string }, DiffOutputProblem>> {
  const source = await readSource(sourcePath);
  if (!source.ok)
    return fail('invalid_source', `${source.manifestFile}: ${source.issues[0]?.message ?? 'cannot be read'}`, {
      file: source.manifestFile,
      issues: source.issues,
    });
  const file = source.manifest.files.find((candidate) => outputRuleFor(candidate.path).path === outputPath);
  if (!file) {
    return {
      ok: true,
      value: {
        side: { presence: 'absent', message: `the source publishes no output "${outputPath}"` },
        bundleDir: source.bundleDir,
        provenance: `the source bundle ${source.bundleDir} lists no file that becomes "${outputPath}"`,
      },
    };
  }
  const bundleRealPath = await fs.realpath(source.bundleDir);
  const read = await readVerifiedSourceFile(bundleRealPath, file);
  if (!read.ok) {
    return {
      ok: true,
      value: { side: { presence: 'unavailable', reason: read.error }, bundleDir: source.bundleDir, provenance: read.error.message },
    };
  }
  const bytes = outputBytesFor(file, read.value);
  const how = outputRuleFor(file.path).kind === 'generated' ? `rendered from ${file.path} (markdown_to_html)` : `copied from ${file.path}`;
  return {
    ok: true,
    value: { bytes, side: sideOfBytes(bytes), bundleDir: source.bundleDir, provenance: `what publishing writes now: ${how}` },
  };
}

export async function diffOutput(request: DiffOutputRequest): Promise<Result<ContentDiff, DiffOutputProblem>> {
  const relative = request.path;
  const unclean = cleanPathProblem(relative);
  if (unclean) return fail('refused', `"${relative}" is not a path inside the destination: it ${unclean}`, { path: relative });
  const inspection = await inspectDestination(request.destinationPath);
  const state = inspection.state && !hasErrors(inspection.issues) ? inspection.state : undefined;
  const record = state?.outputs.find((output) => output.path === relative);
  const against = request.against ?? (record ? 'recorded' : 'publish');
  const recorded = record
    ? {
        kind: record.kind,
        sha256: record.sha256,
        size: record.size,
        source_path: record.source_path,
        ...(record.transform ? { transform: record.transform } : {}),
      }
    : undefined;

  if (against === 'recorded') {
    if (!record) {
      const why = state ? 'the destination state records no such output' : 'the destination holds no valid state';
      return fail('not_found', `"${relative}" is not a recorded output: ${why}`, { path: relative });
    }
    const expected = request.sourcePath === undefined ? undefined : await expectedBytesOf(request.sourcePath, state!, record);
    const expectedBytes = expected?.ok ? expected.value.bytes : undefined;
    const disk = await readDestinationFile(inspection.path, relative, expectedBytes);
    const status = statusOf(record, disk);
    const expectedSide: DiffSide = expected?.ok
      ? sideOfBytes(expected.value.bytes, record.sha256)
      : {
          presence: 'unavailable',
          reason: expected
            ? expected.error
            : problem('no_source', 'the expected bytes are not available: no source bundle was given to prove them from'),
        };
    const offset = status === 'ok' ? undefined : offsetOf(disk, expectedBytes);
    return {
      ok: true,
      value: {
        path: relative,
        against,
        old: { label: 'expected (as the state records it)', side: expectedSide },
        new: { label: 'on disk', side: sideOfDisk(disk) },
        verdict: status === 'ok' ? 'same' : 'differs',
        ...(offset !== undefined ? { firstDifferingOffset: offset } : {}),
        recorded,
        status,
        ...(expected?.ok ? { provenance: expected.value.provenance } : {}),
        ...(request.sourcePath !== undefined ? { sourcePath: request.sourcePath } : {}),
        limitBytes: TEXT_DIFF_LIMIT_BYTES,
      },
    };
  }

  if (request.sourcePath === undefined)
    return fail('invalid_source', `no source bundle to compare "${relative}" with: give one`, { path: relative });
  const published = await publishedSide(request.sourcePath, relative);
  if (!published.ok) return published;
  const { bytes, side: publishedBytesSide, bundleDir, provenance } = published.value;
  const disk = await readDestinationFile(inspection.path, relative, bytes);
  const diskSide = sideOfDisk(disk);
  if (diskSide.presence === 'absent' && publishedBytesSide.presence === 'absent')
    return fail('not_found', `nothing to compare: "${relative}" is not on disk, and ${publishedBytesSide.message.replace(/^the/, 'the')}`, {
      path: relative,
    });
  const verdict = verdictOf(diskSide, publishedBytesSide);
  const offset = verdict === 'differs' ? offsetOf(disk, bytes) : undefined;
  return {
    ok: true,
    value: {
      path: relative,
      against,
      old: { label: 'on disk', side: diskSide },
      new: { label: 'publishing the source now', side: publishedBytesSide },
      verdict,
      ...(offset !== undefined ? { firstDifferingOffset: offset } : {}),
      ...(recorded ? { recorded } : {}),
      provenance,
      sourcePath: bundleDir,
      limitBytes: TEXT_DIFF_LIMIT_BYTES,
    },
  };
}

function verdictOf(a: DiffSide, b: DiffSide): ContentDiff['verdict'] {
  if (a.presence === 'unavailable' || b.presence === 'unavailable') return 'unknown';
  if (a.presence === 'file' && b.presence === 'file') return a.sha256 === b.sha256 ? 'same' : 'differs';
  return a.presence === b.presence ? 'same' : 'differs';
}
