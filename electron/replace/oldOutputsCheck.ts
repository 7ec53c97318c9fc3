// The "changed on disk" hash of the recorded outputs that a plan applied at once left to its apply
// (`hashAtApply`, planDeletions.ts): started as the apply verifies and stages, in the worker pool
// beside the staging copy, and joined before anything old is touched (backup, state, deletes). What
// it finds goes in the result (`checkedDeletes`), as planning would have marked the deletes.
// Read-only; never follows a symbolic link, never opens what lstat did not show to be a regular file
// (engine/hashTask.ts). Each output hashed is looked at again after its hash: one changed while it was
// read fails the apply as a stale plan, as the apply's first check would have caught it.

import type { CheckedDelete, PlanDelete } from '../../shared/plan';
import { ApplyFailure } from './applyErrors';
import type { ApplyRun } from './applyRun';
import { changedOnDisk } from './changedOutputs';
import { lstatEntry } from './fingerprint';

export interface OldOutputsCheck {
  /** The outputs' marks, once hashed and found still as planned; throws ApplyFailure otherwise. */
  join(): Promise<CheckedDelete[]>;
  /** Stops the hashing (the apply failed first) and waits for it to end. */
  stop(): Promise<void>;
}

type Hashed = { marks: Awaited<ReturnType<typeof changedOnDisk>> } | { cause: unknown };

/** Starts hashing the plan's `hashAtApply` deletes under the destination; nothing to join when there are none. */
export function startOldOutputsCheck(run: ApplyRun): OldOutputsCheck {
  const pending = run.plan.deletes.filter(
    (entry): entry is PlanDelete & { hashAtApply: string } => entry.hashAtApply !== undefined && entry.type === 'file',
  );
  if (pending.length === 0) return { join: async () => [], stop: async () => undefined };
  const abort = new AbortController();
  const outputs = pending.map((entry) => ({ path: entry.path, size: entry.size, sha256: entry.hashAtApply }));
  const hashing: Promise<Hashed> = changedOnDisk(run.destReal, outputs, run.options.pool, abort.signal).then(
    (marks) => ({ marks }),
    (cause: unknown) => ({ cause }),
  );
  return {
    async join() {
      const hashed = await hashing;
      if ('cause' in hashed) {
        const message = (hashed.cause as Error)?.message ?? String(hashed.cause);
        throw new ApplyFailure('io_error', `could not hash the recorded outputs it replaces (${message}); nothing old was touched`, {
          phase: run.phase,
        });
      }
      const planned = new Map(run.plan.fingerprint.entries.map((entry) => [entry.path, entry]));
      for (const entry of pending) {
        const seen = planned.get(entry.path);
        const now = await lstatEntry(run.destReal, entry.path);
        const same =
          seen !== undefined &&
          now.type === seen.type &&
          now.size === seen.size &&
          now.mtimeNs === seen.mtimeNs &&
          now.ino === seen.ino &&
          now.dev === seen.dev;
        if (!same)
          throw new ApplyFailure(
            'stale_plan',
            `the destination changed since the plan was made: "${entry.path}" changed while the apply checked its bytes; make a new plan`,
            { path: entry.path },
          );
      }
      return pending.map((entry, index) => {
        const changed = hashed.marks[index];
        return changed !== undefined ? { path: entry.path, changed } : { path: entry.path, sha256: entry.hashAtApply };
      });
    },
    async stop() {
      abort.abort();
      await hashing;
    },
  };
}
