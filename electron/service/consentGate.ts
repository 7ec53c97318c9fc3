// The one consent gate before any apply: local plans, plans kept for a host and restores of a
// backup all pass here, with the same refusals in the same order (the nested destinations
// acknowledged, a partial repair accepted, the confirmation at the plan's level: the typed id, or
// one explicit confirmation; then one apply at a time), after the one check that the plan is the one
// reviewed (a repair's selection of what it keeps). Pure over the plan's facts (shared/planKinds.ts,
// shared/plan.ts): the callers bring what the operator answered. It enforces the level the front ends
// ask (docs/confirmations.md): no apply passes on an unconfirmed call.

import { fail, type ApiFailure } from '../../shared/apiError';
import {
  nestedDestinationsText,
  nestedNotAcknowledged,
  partialNotAccepted,
  repairRefusedText,
  type ConfirmationLevel,
  type ReplacePlan,
} from '../../shared/plan';
import { planKindOf } from '../../shared/planKinds';
import { keptPathsOf, selectionMatches } from '../../shared/repairSelection';
import type { RestorePlan } from '../../shared/backupSchema';

/** What the operator answered: the typed id, the acknowledgements ticked, and a repair's selection. */
export interface Consent {
  confirm?: string | undefined;
  /** One explicit confirmation of the counts (a dialog's button, a "yes" on a terminal, --yes). */
  confirmed?: boolean | undefined;
  includeNested?: boolean | undefined;
  acceptPartial?: boolean | undefined;
  /** A repair: the paths the operator reviewed as kept as they are (absent: none). */
  keep?: readonly string[] | undefined;
}

/**
 * A plan about to be applied: what was planned (a restore's plan has a shape of its own: it names the
 * backup it puts back), the id to type (if it has one), where it runs.
 */
export interface GatedPlan {
  plan:
    | Pick<ReplacePlan, 'mode' | 'destinationPath' | 'nestedDestinations' | 'repair' | 'writes'>
    | Pick<RestorePlan, 'backupId' | 'destinationPath'>;
  /** The level the plan was offered at (shared/planKinds.ts confirmationOf). */
  confirmation: ConfirmationLevel;
  /** What the operator must type at the typed_id level. */
  confirmText?: string | undefined;
  /** The host the plan runs on, named in every refusal; absent on this machine. */
  host?: string | undefined;
  /** Whether another apply or restore is running now (two at once could both pass their staleness check). */
  busy: boolean;
}

/** "no output as it is" or "2 outputs as they are (a.html, b.html)". */
function keptWords(paths: readonly string[], limit = 5): string {
  if (paths.length === 0) return 'no output as it is';
  const more = paths.length > limit ? ` and ${paths.length - limit} more` : '';
  return `${paths.length} output${paths.length === 1 ? ' as it is' : 's as they are'} (${paths.slice(0, limit).join(', ')}${more})`;
}

/** The first consent the plan lacks, as the API's error; undefined when it may be applied. */
export function consentRefusal(gated: GatedPlan, consent: Consent): ApiFailure | undefined {
  const host = gated.host !== undefined ? { host: gated.host } : {};
  const where = `${gated.plan.destinationPath}${gated.host !== undefined ? ` on host ${gated.host}` : ''}`;
  const typed = (what: string) =>
    fail('confirmation_required', `${what} ${where}: type the destination id "${gated.confirmText}" to confirm`, {
      confirmation: 'typed_id',
      expected: gated.confirmText,
      ...host,
    });
  const typedRight = gated.confirmText !== undefined && consent.confirm === gated.confirmText;
  // A typed id stands for the explicit confirmation too: it is the stronger of the two.
  const confirmed = typedRight || consent.confirmed === true;
  const explicit = (what: string) =>
    fail('confirmation_required', `${what} ${where}: confirm it (confirmed) after showing the counts to the operator`, {
      confirmation: 'explicit',
      ...host,
    });
  if ('backupId' in gated.plan) {
    if (!typedRight) return typed(`a restore removes what the apply of backup ${gated.plan.backupId} wrote in`);
    if (gated.busy) return fail('refused', 'another replace or restore is running: wait for it to finish, then plan the restore again');
    return undefined;
  }
  const plan = gated.plan;
  // The selection first: a plan whose kept outputs are not the ones the operator reviewed is not the
  // plan reviewed (a renderer applying the plan made before a box was unticked, say): plan it again.
  if (plan.repair !== undefined && !selectionMatches(plan, consent.keep))
    return fail(
      'refused',
      `this repair of ${where} keeps ${keptWords(keptPathsOf(plan))}, but the selection reviewed keeps ${keptWords([...new Set(consent.keep ?? [])])}: plan the repair again with that selection`,
      { selection: { planned: keptPathsOf(plan), reviewed: [...new Set(consent.keep ?? [])].sort() }, ...host },
    );
  // The acknowledgements first: they are ticked (or given as options) before the id is typed, and
  // asked before the plan is used up, so the operator can tick the box and apply the same plan.
  if (nestedNotAcknowledged(plan, consent.includeNested))
    return fail(
      'confirmation_required',
      `this forced replace${gated.host !== undefined ? ` on ${gated.host}` : ''} would also delete ${nestedDestinationsText(plan)}: acknowledge them (includeNested) to apply`,
      { nestedDestinations: plan.nestedDestinations, ...host },
    );
  if (partialNotAccepted(plan, consent.acceptPartial))
    return fail(
      'confirmation_required',
      `${repairRefusedText(plan)} in ${where}: accept the partial repair (acceptPartial) to repair the other ${plan.writes.length}`,
      { refused: plan.repair?.refused.map((entry) => entry.path) ?? [], ...host },
    );
  const title = planKindOf(plan.mode).title;
  if (gated.confirmation === 'typed_id' && !typedRight)
    return typed(
      planKindOf(plan.mode).deletesWholeTree
        ? 'a forced replace deletes everything in'
        : `a ${title.toLowerCase()} keeps no backup of what it removes in`,
    );
  if (gated.confirmation === 'explicit' && !confirmed) return explicit(`a ${title.toLowerCase()} changes files in`);
  if (gated.busy)
    return fail('refused', 'another replace is running: wait for it to finish, then apply (plan again if it touched this destination)');
  return undefined;
}

/** Throws the first consent the plan lacks (the callers' form: an API handler refuses by throwing). */
export function requireConsent(gated: GatedPlan, consent: Consent): void {
  const refusal = consentRefusal(gated, consent);
  if (refusal) throw refusal;
}
