// What each kind of destructive action is, in one table: the facts every room asks about a plan
// (does it delete the whole tree, does the state on disk stay, is it confirmed by typing the id)
// and its words (its title, what an interrupted one is called, what a failed one left). The one
// place outside electron/replace/kinds/ that reads a plan's kind string: every other reader asks
// this table. Pure; no zod at run time.

import type { AppliedKind, ApplyResult, ConfirmationLevel } from './planSchema';

type Aftermath = Pick<ApplyResult, 'changed' | 'oldTouched' | 'stateWritten' | 'stagingLeft' | 'deleted' | 'written'>;

export interface PlanKindFacts {
  /** "Forced replace": the action's name, at the start of a sentence. */
  title: string;
  /** "forced replace": what an interrupted one is called in a sentence ("an interrupted forced replace of …"). */
  noun: string;
  /** The plan deletes whatever the destination holds (and fingerprints the whole tree), not only what its state records. */
  deletesWholeTree: boolean;
  /** The state on disk stays as it is: the action writes no new one (a restore writes back the old one). */
  keepsState: boolean;
  /** The operator confirms it by typing the destination's id, backup or not (the gravest actions); the others only when no backup is kept (confirmationOf). */
  confirmsById: boolean;
  /** It may leave some of its targets as they are, when the operator accepts that (--accept-partial). */
  mayBePartial: boolean;
  /** It removes only the destination's staging folders: the state and every output stay as they are. */
  onlyStaging: boolean;
  /** A completed one, as its result's title: "Replaced", "Repaired". */
  doneTitle: string;
  /** What a completed one left as it was, in one sentence after its counts. */
  doneNote: string;
  /** Its result's backup is the one it put back (a restore), not one kept of what it removed: no Undo of it. */
  putsBackBackup: boolean;
  /**
   * It writes the state file and nothing else, removing nothing (adopt): its backup is kept although
   * it holds no entry, so that an undo removes the state it wrote.
   */
  writesOnlyState: boolean;
  /** What a failed apply of this kind left, when it changed something; absent: the replace words (shared/plan.ts). */
  aftermath?: (result: Aftermath) => string;
}

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

export const PLAN_KINDS: Readonly<Record<AppliedKind, PlanKindFacts>> = {
  replace: {
    doneTitle: 'Replaced',
    doneNote: 'The new state file is in place; extra files were kept.',
    putsBackBackup: false,
    title: 'Replace',
    noun: 'replace',
    deletesWholeTree: false,
    keepsState: false,
    confirmsById: false,
    mayBePartial: false,
    onlyStaging: false,
    writesOnlyState: false,
  },
  force: {
    doneTitle: 'Replaced',
    doneNote: 'The new state file is in place.',
    putsBackBackup: false,
    title: 'Forced replace',
    noun: 'forced replace',
    deletesWholeTree: true,
    keepsState: false,
    confirmsById: true,
    mayBePartial: false,
    onlyStaging: false,
    writesOnlyState: false,
  },
  repair: {
    doneTitle: 'Repaired',
    doneNote: 'The state file was not touched and the extra files stay.',
    putsBackBackup: false,
    title: 'Repair',
    noun: 'repair',
    deletesWholeTree: false,
    keepsState: true,
    confirmsById: false,
    mayBePartial: true,
    onlyStaging: false,
    writesOnlyState: false,
    // The state is never touched by a repair: each output is as it was, or restored, or (between the
    // removal of its drifted bytes and the move of the proven ones) missing.
    aftermath: (result) => {
      const staging = result.stagingLeft ? '; its staging folder was left behind (Discard staging removes it)' : '';
      return `The state file was not touched: ${result.written.length} output${plural(result.written.length, ' was', 's were')} restored before it stopped, and a later repair restores the rest${staging}.`;
    },
  },
  discard_staging: {
    doneTitle: 'Staging discarded',
    doneNote: 'The state file, the outputs and every other file were not touched.',
    putsBackBackup: false,
    title: 'Discard staging',
    noun: 'discard of staging',
    deletesWholeTree: false,
    keepsState: true,
    confirmsById: false,
    mayBePartial: false,
    onlyStaging: true,
    writesOnlyState: false,
    aftermath: (result) =>
      `${result.deleted.length} staging folder${plural(result.deleted.length, ' was', 's were')} removed before it stopped; what is left of one keeps its marker, so Discard staging can be run again.`,
  },
  adopt: {
    doneTitle: 'Adopted',
    doneNote: 'No file was moved or removed; the extra files stay.',
    putsBackBackup: false,
    title: 'Adopt',
    noun: 'adopt',
    deletesWholeTree: false,
    keepsState: false,
    // Nothing is removed or overwritten, and the undo removes only the state it wrote: one confirmation.
    confirmsById: false,
    mayBePartial: false,
    onlyStaging: false,
    writesOnlyState: true,
    aftermath: (result) =>
      result.stateWritten
        ? 'The state file is in place; only the cleanup of its staging folder did not finish.'
        : 'No state file was written; only its staging folder may be left behind (Discard staging removes it).',
  },
  restore: {
    doneTitle: 'Restored',
    doneNote: 'The old state is back in place.',
    putsBackBackup: true,
    title: 'Restore',
    noun: 'restore',
    deletesWholeTree: false,
    keepsState: false,
    // Undoing an apply is confirmed as the gravest actions are (service/consentGate.ts).
    confirmsById: true,
    mayBePartial: false,
    onlyStaging: false,
    writesOnlyState: false,
    aftermath: (result) =>
      result.stateWritten
        ? 'The old state is back in place; only the cleanup of the restore did not finish.'
        : `Removed ${result.deleted.length}, put back ${result.written.length} before it stopped, with no state claiming anything yet: restore the same backup again to finish (or force a replace).`,
  },
};

/** The facts and words of a kind; a kind this build does not know (an older or newer peer's) reads as a replace. */
export function planKindOf(kind: string | undefined): PlanKindFacts {
  return (kind !== undefined && Object.hasOwn(PLAN_KINDS, kind) ? PLAN_KINDS[kind as AppliedKind] : undefined) ?? PLAN_KINDS.replace;
}

/** What a kind is called in a sentence; a kind this build does not know (a marker's, say) by its own word. */
export function planKindNoun(kind: string): string {
  return Object.hasOwn(PLAN_KINDS, kind) ? PLAN_KINDS[kind as AppliedKind].noun : kind;
}

/**
 * How an apply is confirmed (docs/confirmations.md), the one rule for the app, the CLI and the
 * service's consent gate: what removes or overwrites bytes with no backup to undo it from, and the
 * kinds the table confirms by id (a forced replace deletes what no state records; a restore keeps no
 * backup of what it removes), ask for the typed destination id; what is backed up and undoable asks
 * for one explicit confirmation that names the counts. No apply is ever one click.
 */
export function confirmationOf(kind: string | undefined, backupKept: boolean): ConfirmationLevel {
  const facts = planKindOf(kind);
  return facts.confirmsById || !backupKept ? 'typed_id' : 'explicit';
}
