// The content diff of one output as data (zod, declared once): the two sides (bytes on disk, and
// the bytes the state records or a publish would write), each as text when it is text and small
// enough, else its size and hash; the verdict; and where the bytes first differ. The engine builds
// it, the API carries it, the CLI and the renderer draw it with textDiff.ts. Pure zod.

import { z } from 'zod';
import { problemSchema } from '../problemSchema';

/**
 * `recorded`: the bytes on disk against the bytes the state says should be there (old: expected,
 * new: on disk: how the file drifted). `publish`: the bytes on disk against what publishing the
 * source now would write (old: on disk, new: the publication: what a replace would change).
 */
export const diffAgainstSchema = z.enum(['recorded', 'publish']);
export type DiffAgainst = z.infer<typeof diffAgainstSchema>;

export const diffSideSchema = z.discriminatedUnion('presence', [
  z.object({
    presence: z.literal('file'),
    sizeBytes: z.number().int().nonnegative(),
    sha256: z.string(),
    /** The content, when it is text (UTF-8, no NUL) and within the limit; shown as text, never as HTML. */
    text: z.string().optional(),
    /** Why there is no text. */
    noText: z.enum(['binary', 'too_large']).optional(),
  }),
  /** Nothing there: missing on disk, or the source publishes no such output. */
  z.object({ presence: z.literal('absent'), message: z.string() }),
  /** A directory, a link, a device: named, never opened. */
  z.object({ presence: z.literal('not_a_file'), what: z.string() }),
  /** The bytes cannot be had or proven (the expected bytes of a changed source, an unreadable file): the reason. */
  z.object({ presence: z.literal('unavailable'), reason: problemSchema }),
]);
export type DiffSide = z.infer<typeof diffSideSchema>;

export const contentDiffSchema = z.object({
  /** The output path, relative to the destination. */
  path: z.string(),
  against: diffAgainstSchema,
  old: z.object({ label: z.string(), side: diffSideSchema }),
  new: z.object({ label: z.string(), side: diffSideSchema }),
  /** `unknown` only when neither the bytes nor the record can say. */
  verdict: z.enum(['same', 'differs', 'unknown']),
  /** Where the bytes first differ, when both sides are files that differ. */
  firstDifferingOffset: z.number().int().nonnegative().optional(),
  /** The output's record in the state, when the destination's valid state lists the path. */
  recorded: z
    .object({ kind: z.string(), sha256: z.string(), size: z.number(), source_path: z.string(), transform: z.string().optional() })
    .optional(),
  /** What the verify status of the output would be (recorded mode), from the bytes read now. */
  status: z.enum(['ok', 'missing', 'size_mismatch', 'hash_mismatch', 'not_a_file']).optional(),
  /** How the expected or published bytes were had, in words ("the source file, whose sha256 equals the recorded one"). */
  provenance: z.string().optional(),
  /** The source bundle used, when one was. */
  sourcePath: z.string().optional(),
  limitBytes: z.number(),
});
export type ContentDiff = z.infer<typeof contentDiffSchema>;

/** The text of a side for the line diff: a missing file is empty, so its lines all show added or removed. */
export function sideText(side: DiffSide): string | undefined {
  if (side.presence === 'absent') return '';
  if (side.presence === 'file') return side.text;
  return undefined;
}
