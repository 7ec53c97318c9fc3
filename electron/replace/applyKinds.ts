// What applyPlan checks and does for the two recovery kinds, beside its replace steps: a repair must
// rewrite only recorded outputs of the state on disk, with their recorded bytes, and delete only the
// drifted thing standing at such a path; a discard must remove only staging folders that are still
// interrupted ones. Problems come back as data; applyPlan turns them into its failures.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isCleanRelativePath } from '../../shared/cleanPath';
import { parseState } from '../../shared/parseDocument';
import { partialNotAccepted, repairRefusedText, type PlanWrite, type ReplacePlan } from '../../shared/plan';
import { problem, type Problem, type Result } from '../../shared/result';
import { isStagingFolderName, STAGING_MARKER_NAME } from '../../shared/staging';
import { STATE_FILE_NAME, type State } from '../../shared/stateSchema';
import { readRegularFile } from '../engine/regularFile';
import { interruptedStagingFolders } from '../engine/stagingReader';
import { expectedOutputBytes } from './expectedBytes';
import { joinRelative, lstatEntry, readStateFileBytes } from './fingerprint';
import { sha256Of } from './sourceFile';

const invalid = (message: string, details?: Record<string, unknown>): { ok: false; error: Problem } => ({
  ok: false,
  error: problem('invalid_plan', message, details),
});

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

/** A discard removes only top-level staging folders that the one rule still calls interrupted, and writes nothing. */
export async function checkDiscardPlan(plan: ReplacePlan, destReal: string): Promise<Problem | undefined> {
  if (plan.writes.length > 0 || plan.newState) return invalid('discarding staging writes nothing').error;
  const bytes = await readStateFileBytes(destReal);
  const parsed = bytes instanceof Buffer ? parseState(bytes) : undefined;
  const recorded = parsed?.status === 'managed' ? parsed.state.outputs.map((output) => output.path) : [];
  const interrupted = new Set(interruptedStagingFolders(destReal, recorded));
  for (const entry of plan.deletes) {
    if (!isCleanRelativePath(entry.path) || entry.path.includes('/') || !isStagingFolderName(entry.path) || entry.type !== 'directory')
      return invalid(`discarding staging removes only top-level staging folders, but the plan removes "${entry.path}"`, {
        path: entry.path,
      }).error;
    if (!interrupted.has(entry.path))
      return problem('stale_plan', `"${entry.path}" is no longer the marked staging folder of an interrupted apply; plan again`, {
        path: entry.path,
      });
  }
  return undefined;
}

export interface DiscardOps {
  unlink(relative: string): Promise<void>;
  rmdir(relative: string): Promise<void>;
  removeTree(relative: string): Promise<void>;
}

/**
 * Removes one staging folder, its marker last: killed part-way, what is left still carries the
 * marker, so it is still reported as interrupted and can be discarded again. Folders go through
 * removeTree (never follows a link, never leaves the folder); anything else is unlinked as itself.
 */
export async function discardStagingFolder(name: string, destReal: string, ops: DiscardOps): Promise<void> {
  const names = (await fs.readdir(joinRelative(destReal, name))).filter((child) => child !== STAGING_MARKER_NAME).sort();
  for (const child of names) {
    const relative = path.posix.join(name, child);
    if ((await lstatEntry(destReal, relative)).type === 'directory') await ops.removeTree(relative);
    else await ops.unlink(relative);
  }
  if ((await lstatEntry(destReal, `${name}/${STAGING_MARKER_NAME}`)).type !== 'missing') await ops.unlink(`${name}/${STAGING_MARKER_NAME}`);
  await ops.rmdir(name);
}
