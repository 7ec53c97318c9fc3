// A repair as the apply runs it: it rewrites only recorded outputs of the state on disk, with their
// recorded bytes, and deletes only the drifted thing standing at such a path; the state stays. The
// outputs the operator kept as they are are never written or deleted (and stay drifted).

import { parseState } from '../../../shared/parseDocument';
import { partialNotAccepted, repairRefusedText, type PlanWrite, type ReplacePlan } from '../../../shared/plan';
import { problem, type Problem, type Result } from '../../../shared/result';
import { STATE_FILE_NAME, type State } from '../../../shared/stateSchema';
import { readRegularFile } from '../../engine/regularFile';
import { expectedOutputBytes } from '../expectedBytes';
import { joinRelative, readStateFileBytes } from '../fingerprint';
import { sha256Of } from '../sourceFile';
import { ApplyFailure, invalidPlan as invalid, sourceChanged } from '../applyErrors';
import { checkPublication } from '../applyChecks';
import { publishStaged, removeRecorded } from '../publishStaged';
import type { ApplyKind } from './applyKind';

/**
 * The state a repair restores: the one on disk (the fingerprint already proved it is the planned one),
 * with every write one of its outputs, byte for byte as recorded, and every delete a write's path
 * whose file there really does not hold the recorded bytes (an output that is fine is never touched).
 */
export async function repairTarget(
  plan: ReplacePlan,
  destReal: string,
  acceptPartial: boolean | undefined,
): Promise<Result<State, Problem>> {
  if (partialNotAccepted(plan, acceptPartial))
    return {
      ok: false,
      error: problem(
        'partial_not_accepted',
        `${repairRefusedText(plan)}; the other ${plan.writes.length} are repaired only if the partial repair is accepted (--accept-partial, or acceptPartial)`,
        { refused: plan.repair?.refused.map((entry) => entry.path) ?? [] },
      ),
    };
  if (plan.newState) return invalid('a repair plan carries no new state: the state on disk stays');
  const bytes = await readStateFileBytes(destReal);
  const parsed = bytes instanceof Buffer ? parseState(bytes) : undefined;
  if (parsed?.status !== 'managed') return invalid('a repair needs the valid state it was planned on');
  const state = parsed.state;
  const records = new Map(state.outputs.map((output) => [output.path, output]));
  for (const write of plan.writes) {
    const record = records.get(write.path);
    if (
      !record ||
      record.sha256 !== write.sha256 ||
      record.size !== write.size ||
      record.kind !== write.kind ||
      record.source_path !== write.source_path
    )
      return invalid(`a repair writes only recorded outputs with their recorded bytes, but the plan writes "${write.path}" otherwise`, {
        path: write.path,
      });
  }
  const written = new Set(plan.writes.map((write) => write.path));
  // A kept output is the operator's: the plan names it only to leave it, never to write or delete it.
  for (const kept of plan.repair?.kept ?? [])
    if (written.has(kept.path) || plan.deletes.some((entry) => entry.path === kept.path) || !records.has(kept.path))
      return invalid(`"${kept.path}" is kept as it is, so a repair neither writes nor deletes it, and it must be a recorded output`, {
        path: kept.path,
      });
  for (const entry of plan.deletes) {
    if (entry.path === STATE_FILE_NAME || !written.has(entry.path))
      return invalid(`a repair deletes only what stands at an output it rewrites, but the plan deletes "${entry.path}"`, {
        path: entry.path,
      });
    if (entry.type !== 'file') continue;
    const record = records.get(entry.path)!;
    const read = await readRegularFile(joinRelative(destReal, entry.path), { maxBytes: Math.max(entry.size, record.size) + 1 });
    if (read.kind === 'bytes' && read.bytes.length === record.size && sha256Of(read.bytes) === record.sha256)
      return invalid(`"${entry.path}" holds its recorded bytes: a repair never deletes an output that is fine`, { path: entry.path });
  }
  return { ok: true, value: state };
}

/** The bytes a repair writes for one output: proven from the source bundle to be the recorded ones. */
export async function repairBytes(state: State, write: PlanWrite, sourcePath: string): Promise<Result<Buffer, Problem>> {
  const record = state.outputs.find((output) => output.path === write.path);
  if (!record) return invalid(`"${write.path}" is not a recorded output`, { path: write.path });
  const proven = await expectedOutputBytes(record, sourcePath, state.source.manifest);
  return proven.ok ? { ok: true, value: proven.value.bytes } : proven;
}

export const repairKind: ApplyKind = {
  kind: 'repair',
  async check(run) {
    // What the writes publish: the state on disk, which stays.
    const target = await repairTarget(run.plan, run.destReal, run.options.acceptPartial);
    if (!target.ok) throw new ApplyFailure(target.error.code, target.error.message, target.error.details);
    return checkPublication(run, target.value);
  },
  execute: (run, state) =>
    publishStaged(run, {
      state: state!,
      markerMode: 'repair',
      trash: false,
      // The state stays: the point of no return is the first drifted output it removes.
      writesState: false,
      removeOld: removeRecorded,
      // Exactly the bytes the state records, proven the one way (expectedBytes.ts).
      provenBytes: async (write) => {
        const proven = await repairBytes(state!, write, run.plan.sourcePath);
        if (!proven.ok) throw sourceChanged(proven.error);
        return proven.value;
      },
    }),
  // Also the empty folder standing where an output goes: kept, as a file is.
  keptInBackup: () => true,
  leftovers: (plan) => [plan.stagingName],
};
