// What verify found behind a matching manifest: the recorded outputs that differ from what the state
// records, and the entries no state records. Compare and plan put it beside the decision, so that
// "up to date" is never said of a destination whose files were edited by hand. Pure.

import { z } from 'zod';
import type { VerifyReport } from './verifyReport';

export const driftedOutputSchema = z.object({
  path: z.string(),
  status: z.enum(['missing', 'size_mismatch', 'hash_mismatch', 'not_a_file']),
});
export type DriftedOutput = z.infer<typeof driftedOutputSchema>;

export const outputDriftSchema = z.object({
  /** Recorded outputs checked (size, then sha256) against the state. */
  verifiedCount: z.number(),
  /** Those that differ from their record, in the state's order. */
  drifted: z.array(driftedOutputSchema),
  /** Entries no state records (an empty folder ends in "/"): a repair keeps them, a forced replace deletes them. */
  extras: z.array(z.string()),
});
export type OutputDrift = z.infer<typeof outputDriftSchema>;

export function outputDriftOf(report: VerifyReport): OutputDrift {
  const drifted: DriftedOutput[] = [];
  for (const output of report.outputs) if (output.status !== 'ok') drifted.push({ path: output.path, status: output.status });
  return { verifiedCount: report.outputs.length, drifted, extras: report.extra };
}

/** "a, b and c" for up to `shown` names, then "and N more". */
export function firstNames(names: readonly string[], shown = 3): string {
  const head = names.slice(0, shown);
  if (names.length > shown) return `${head.join(', ')} and ${names.length - shown} more`;
  if (head.length <= 1) return head.join('');
  return `${head.slice(0, -1).join(', ')} and ${head[head.length - 1]}`;
}
