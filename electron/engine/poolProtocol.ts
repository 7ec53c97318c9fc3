// The jobs HashPool's worker threads run and the messages that carry them. One worker file serves
// every job (it is the one worker bundle scripts/build.mjs makes): hash a file, list a destination,
// inspect a destination. Types only; nothing here touches the disk.

import type { ScanSummary, VerifyReport } from '../../shared/verifyReport';
import type { CachedOutput, CachedState } from '../../shared/verifyFreshnessCache';
import type { UnchangedExpectation } from '../../shared/verifyFreshnessCheck';
import type { HashOutcome, HashTask } from './hashTask';
import type { InspectionWire } from './scanReader';
import type { CheckOutcome } from './statCheck';

export interface ListJob {
  kind: 'list';
  root: string;
  /** Relative paths neither listed nor entered: outputs, the state file, the staging folder. */
  exclude: string[];
  /** Folders not reported when empty: the parents of outputs. */
  expectedDirs: string[];
}

export interface InspectJob {
  kind: 'inspect';
  path: string;
  /** Send the state back (its JSON value), for a caller that keeps it (a verify, the UI). */
  withState: boolean;
  /** Verify a managed destination right there, against the state just read: one pass, no state sent. */
  verify: boolean;
  /** Hash the state file and digest the listing (the inspection's fingerprint); false: neither. */
  digests: boolean;
  /** False: `hasContent` is left unsettled where it costs a call of its own (scanReader.ts). */
  settleContent: boolean;
  /** Verify through the stat cache (cachedHash.ts): what it knows of this destination, or {} for nothing yet. */
  known?: Record<string, CachedOutput>;
  /**
   * Render the row's fields from `path` on as `scan --json` prints them (shared/scanRowText.ts), here
   * where they were read: the outcome's `text`. A verify's report then travels in that text only, its
   * status beside it (`verifyStatus`); `verifiedAt` is the time the text gives it.
   */
  rowText?: { verifiedAt?: string };
  /** With `verify`: an intact destination's report stays here, its status alone travels (`verifyStatus`). */
  driftedReportsOnly?: boolean;
}

/** A re-verify's stat check (statCheck.ts): is the destination as the stat cache expects it? */
export interface CheckJob {
  kind: 'check';
  path: string;
  /** shared/verifyFreshnessCheck.ts's expectation. */
  expectation: UnchangedExpectation;
  /** Digest the listing, as an inspection's fingerprint would. */
  digests: boolean;
}

export type Job = ({ kind: 'hash' } & HashTask) | ListJob | InspectJob | CheckJob;

export type ListOutcome = { kind: 'listed'; entries: string[] } | { kind: 'error'; message: string };
export type InspectOutcome =
  | {
      kind: 'inspected';
      inspection: InspectionWire;
      summary: ScanSummary;
      verify?: VerifyReport;
      /** With `rowText`: the row's fields as text. With it or `driftedReportsOnly`, the status of a report not sent. */
      text?: string;
      verifyStatus?: VerifyReport['status'];
      /**
       * With `known`: the stat cache's entries that changed or went, how many outputs were read, and the
       * state file's entry (cachedState.ts; null: none to keep).
       */
      cache?: { changed: Record<string, CachedOutput>; dropped: string[]; hashed: number; state: CachedState | null };
    }
  | { kind: 'error'; message: string };
export type CheckJobOutcome = CheckOutcome | { kind: 'error'; message: string };
export type PoolJobOutcome = HashOutcome | ListOutcome | InspectOutcome | CheckJobOutcome;

export type ToWorker = { type: 'batch'; id: number; jobs: Job[] };
/**
 * Outcomes travel as one JSON string: for these plain objects, JSON.stringify in the worker plus
 * JSON.parse on the main side cost less than the structured clone of the same graph. An inspection's
 * rendered `text` travels beside it, in `texts` by the outcome's index: a string inside the JSON would
 * be escaped there and unescaped here, where as it is it crosses as one copy.
 */
export type FromWorker =
  /** Sent once the worker's code has loaded: a death before it is a broken worker, not a bad job. */
  | { type: 'ready' }
  | { type: 'progress'; id: number; bytes: number }
  | { type: 'done'; id: number; outcomesJson: string; texts?: (string | null)[]; bytes: number };
