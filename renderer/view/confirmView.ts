// How a dialog confirms an apply, at the level the service offered the plan at (docs/confirmations.md):
// what the dialog asks, what it says about undo, and what goes back with applyPlan. Pure; the level
// itself is the service's answer (shared/planKinds.ts confirmationOf), never decided here.

import type { ConfirmationLevel } from '../../shared/plan';

/** What the operator answered in the dialog, as applyPlan takes it. */
export interface DialogConsent {
  confirm?: string;
  confirmed: true;
}

/** The consent a confirmed dialog sends: the typed id at the typed level (it stands for the confirmation too). */
export function consentOf(level: ConfirmationLevel, typed: string): DialogConsent {
  return level === 'typed_id' ? { confirm: typed, confirmed: true } : { confirmed: true };
}

/** Whether the dialog's confirm button may be pressed: at the typed level only once the id is typed exactly. */
export function mayConfirm(level: ConfirmationLevel, confirmText: string | undefined, typed: string): boolean {
  return level === 'explicit' || (confirmText !== undefined && typed === confirmText);
}

/** One sentence on undo beside the counts: what a backed-up apply can be undone by, or that it cannot. */
export function undoWords(level: ConfirmationLevel, backupKept: boolean | undefined): string {
  if (backupKept === undefined) return '';
  if (backupKept && level === 'explicit') return 'What it removes or overwrites is kept as a backup first: Undo puts it back.';
  if (backupKept) return 'What it removes is kept as a backup first, so it can be undone.';
  return 'No backup is kept: it cannot be undone.';
}
