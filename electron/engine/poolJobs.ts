// What HashPool's jobs do (poolProtocol.ts): hash a file, list a destination, check one against
// the stat cache, inspect one (and verify it). Run by the worker threads (hashWorker.ts), one batch at a time, with the thread's
// hasher. Never follows a link; a batch holds the hasher's buffers for its whole run.

import { lstatSync } from 'node:fs';
import type { CachedOutput } from '../../shared/verifyFreshnessCache';
import { rowBodyText } from '../../shared/scanRowText';
import type { VerifyReport } from '../../shared/verifyReport';
import { cachedStateOf, stateFileBeforeRead } from './cachedState';
import { examineAndHash, type Hasher } from './hashTask';
import { verifyHere, type RecordedOutput } from './judgeOutputs';
import { listFiles } from './listFiles';
import type { InspectJob, InspectOutcome, Job, PoolJobOutcome } from './poolProtocol';
import { inspectDestinationSync, summarizeInspection } from './scanReader';
import { checkUnchanged } from './statCheck';

function message(cause: unknown): string {
  return (cause as NodeJS.ErrnoException)?.code ?? (cause as Error)?.message ?? String(cause);
}

/** Only what changed travels back: for an unchanged destination, nothing (a re-verify's usual case). */
function cacheDelta(known: Record<string, CachedOutput>, seen: Record<string, CachedOutput>) {
  const changed: Record<string, CachedOutput> = {};
  for (const [output, entry] of Object.entries(seen)) if (!Object.hasOwn(known, output) || known[output] !== entry) changed[output] = entry;
  const dropped = Object.keys(known).filter((output) => !Object.hasOwn(seen, output));
  return { changed, dropped };
}

export function runJob(job: Job, hasher: Hasher): PoolJobOutcome | Promise<PoolJobOutcome> {
  switch (job.kind) {
    case 'hash':
      return examineAndHash(job, hasher, true);
    case 'list': {
      // The destination must be a real directory: listing through a link would leave it.
      const stat = lstatSync(job.root, { throwIfNoEntry: false });
      if (!stat?.isDirectory()) return { kind: 'listed', entries: [] };
      try {
        return { kind: 'listed', entries: listFiles(job.root, { exclude: new Set(job.exclude), expectedDirs: new Set(job.expectedDirs) }) };
      } catch (cause) {
        return { kind: 'error', message: `${job.root} cannot be listed (${message(cause)})` };
      }
    }
    case 'check':
      try {
        return checkUnchanged(job.path, job.expectation, job.digests);
      } catch {
        // Unreadable now: the full verify says how.
        return { kind: 'changed' };
      }
    case 'inspect':
      try {
        // Through the stat cache, the state file's signature comes first: the entry kept of it must never outlive its bytes.
        const before = job.known ? stateFileBeforeRead(job.path) : undefined;
        const { inspection, json, entries } = inspectDestinationSync(job.path, {
          digests: job.digests,
          withState: job.withState,
          entries: job.verify,
          settleContent: job.settleContent,
        });
        const summary = summarizeInspection(inspection, json);
        if (job.verify && job.known && (inspection.status !== 'managed' || !json))
          return answered(job, { kind: 'inspected', inspection, summary, cache: { changed: {}, dropped: [], hashed: 0, state: null } });
        if (!job.verify || inspection.status !== 'managed' || !json) return answered(job, { kind: 'inspected', inspection, summary });
        // Managed means the state is valid: its outputs are records with clean paths, sizes and hashes.
        // The walk for extras starts from the listing the inspection read: one listing per destination.
        const outputs = json.outputs as RecordedOutput[];
        const cache = job.known ? { known: job.known, seen: {}, hashed: 0 } : undefined;
        const answer = (verify: VerifyReport): PoolJobOutcome => {
          if (!cache || !job.known) return answered(job, { kind: 'inspected', inspection, summary, verify });
          const state = cachedStateOf(before, inspection, json);
          return answered(job, {
            kind: 'inspected',
            inspection,
            summary,
            verify,
            cache: { ...cacheDelta(job.known, cache.seen), hashed: cache.hashed, state },
          });
        };
        const verify = verifyHere(inspection.path, outputs, hasher, entries, cache, true);
        return verify instanceof Promise ? verify.then(answer, (cause: unknown) => failed(job.path, cause)) : answer(verify);
      } catch (cause) {
        return failed(job.path, cause);
      }
  }
}

type Inspected = Extract<InspectOutcome, { kind: 'inspected' }>;

/**
 * The outcome as the job asked for it: with `rowText`, the row's fields as `scan --json` prints them
 * and the report only as its status beside them; with `driftedReportsOnly`, an intact report as its
 * status alone.
 */
function answered(job: InspectJob, outcome: Inspected): Inspected {
  const { inspection, summary, verify, cache } = outcome;
  const reportApart = verify && (job.rowText || (job.driftedReportsOnly && verify.status === 'intact'));
  const text = job.rowText
    ? rowBodyText(inspection, summary, verify ? { report: verify, verifiedAt: job.rowText.verifiedAt } : undefined)
    : undefined;
  if (!reportApart) {
    if (text !== undefined) outcome.text = text;
    return outcome;
  }
  return {
    kind: 'inspected',
    inspection,
    summary,
    ...(cache ? { cache } : {}),
    ...(text !== undefined ? { text } : {}),
    verifyStatus: verify.status,
  };
}

function failed(path: string, cause: unknown): PoolJobOutcome {
  return { kind: 'error', message: `${path} cannot be read (${message(cause)})` };
}

/** The batch's outcomes in order; a job that answers with a promise holds the next until it settles. */
export function runAll(
  jobs: Job[],
  hasher: Hasher,
  from = 0,
  outcomes: PoolJobOutcome[] = [],
): PoolJobOutcome[] | Promise<PoolJobOutcome[]> {
  for (let index = from; index < jobs.length; index += 1) {
    const outcome = runJob(jobs[index]!, hasher);
    if (outcome instanceof Promise)
      return outcome.then((settled) => {
        outcomes.push(settled);
        return runAll(jobs, hasher, index + 1, outcomes);
      });
    outcomes.push(outcome);
  }
  return outcomes;
}
