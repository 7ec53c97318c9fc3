// The operator's choice of which drifted outputs a repair rewrites: the others are kept as they are,
// on purpose (an intentional hotfix), as a per-file discard or a selective sync does. Pure: it only
// ever narrows a plan the engine made (never adds a path to write or delete), and the state file is
// never told a kept output matches: its record stays as the publisher wrote it, so verify still
// reports it drifted afterwards. The plan's fingerprint still covers the kept paths, so a kept output
// edited again between plan and apply makes the apply stale, like any other path the plan looked at.

import { cleanPathProblem } from './cleanPath';
import type { RepairEntry, ReplacePlan } from './planSchema';
import { problem, type Problem, type Result } from './result';

/** The paths a repair plan leaves as they are by choice, sorted (empty for any other plan). */
export function keptPathsOf(plan: Pick<ReplacePlan, 'repair'>): string[] {
  return (plan.repair?.kept ?? []).map((entry) => entry.path).sort();
}

/** Why one path cannot be kept, or undefined when the plan would rewrite it (or already keeps it). */
function keepProblem(plan: ReplacePlan, path: string): Problem | undefined {
  const unclean = cleanPathProblem(path);
  if (unclean !== null) return problem('keep_unclean_path', `the path to keep "${path}" ${unclean}`, { path });
  const details = plan.repair!;
  if (details.repairs.some((entry) => entry.path === path) || details.kept?.some((entry) => entry.path === path)) return undefined;
  const refused = details.refused.find((entry) => entry.path === path);
  return problem(
    'keep_not_in_plan',
    refused
      ? `"${path}" is not rewritten by this repair anyway (${refused.message}): there is nothing to keep`
      : `"${path}" is not a drifted output this repair rewrites: there is nothing to keep (plan the repair to see which ones drifted)`,
    { path },
  );
}

/**
 * The repair plan with the `keep` paths left out: their writes and deletes gone, each listed in
 * `repair.kept`, the counts and the action recomputed. Refused, with the path named, when a path is
 * not clean or not one the plan rewrites (a kept path that is not in the plan is a mistake the
 * operator should hear about, never silently ignored).
 */
export function selectRepair(plan: ReplacePlan, keep: readonly string[]): Result<ReplacePlan, Problem> {
  if (!plan.repair) return { ok: false, error: problem('keep_not_repair', 'only a repair can keep drifted outputs as they are') };
  for (const path of keep) {
    const refusal = keepProblem(plan, path);
    if (refusal) return { ok: false, error: refusal };
  }
  const kept = new Set(keep);
  if (kept.size === 0) return { ok: true, value: plan };
  const isKept = (path: string) => kept.has(path);
  const writes = plan.writes.filter((write) => !isKept(write.path));
  const deletes = plan.deletes.filter((entry) => !isKept(entry.path));
  const newlyKept: RepairEntry[] = plan.repair.repairs.filter((entry) => isKept(entry.path));
  return {
    ok: true,
    value: {
      ...plan,
      action: writes.length > 0 ? 'replace' : 'nothing',
      stagingName: writes.length > 0 ? plan.stagingName : '',
      deletes,
      writes,
      repair: {
        ...plan.repair,
        repairs: plan.repair.repairs.filter((entry) => !isKept(entry.path)),
        kept: [...(plan.repair.kept ?? []), ...newlyKept],
      },
      summary: {
        deleteCount: deletes.length,
        writeCount: writes.length,
        deleteBytes: deletes.reduce((sum, entry) => sum + (entry.type === 'directory' ? 0 : entry.size), 0),
        writeBytes: writes.reduce((sum, write) => sum + write.size, 0),
        changedCount: deletes.length,
      },
    },
  };
}

/** Whether `keep` (as the operator reviewed it; absent: none) is exactly what the plan keeps. */
export function selectionMatches(plan: Pick<ReplacePlan, 'repair'>, keep: readonly string[] | undefined): boolean {
  const planned = keptPathsOf(plan);
  const given = [...new Set(keep ?? [])].sort();
  return planned.length === given.length && planned.every((path, index) => path === given[index]);
}

/** The drifted outputs a choice is made over: those the plan rewrites and those it keeps, by path. */
export function repairChoicePaths(plan: Pick<ReplacePlan, 'repair'>): string[] {
  return [...(plan.repair?.repairs ?? []), ...(plan.repair?.kept ?? [])].map((entry) => entry.path).sort();
}

/**
 * The counts of a choice over a plan, as its boxes are ticked: `unchecked` are the outputs (rewritten
 * or kept by the plan) the operator leaves as they are; the rest would be rewritten.
 */
export function repairChoiceCounts(
  plan: Pick<ReplacePlan, 'repair'>,
  unchecked: ReadonlySet<string>,
): { rewrite: number; keep: number; refused: number } {
  const paths = repairChoicePaths(plan);
  const keep = paths.filter((path) => unchecked.has(path)).length;
  return { rewrite: paths.length - keep, keep, refused: plan.repair?.refused.length ?? 0 };
}
