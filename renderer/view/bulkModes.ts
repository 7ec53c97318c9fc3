// What a bulk run can be, in one table: each row is a plan kind offered for several destinations at
// once, with what the panel, its dialog and its rows say and show for it. Its name, verb and past
// tense are the kind's own (shared/planKinds.ts); the rest is the bulk panel's. Adding a bulk action
// is adding a row here (and its planner, renderer/state/bulk.ts). No file compares a bulk mode to a
// kind's string: it reads this table. Pure: no DOM, no API.

import type { ApplyResult, PlanKind } from '../../shared/plan';
import { PLAN_KINDS } from '../../shared/planKinds';
import type { IconName } from '../components/Icon';
import { plural } from './format';

export interface BulkModeFacts {
  /** The kind each destination is planned as: its words are the kind's. */
  kind: PlanKind;
  /** The section's icon. */
  icon: IconName;
  /** The section's paragraph: what a run of it does. */
  about: string;
  /** The confirmation's sentence, around the counts of all the planned ones (in bold). */
  confirmLead: string;
  confirmTail: string;
  /** The test ids of its plan and outcome summaries. */
  planSummaryTestId: string;
  outcomeSummaryTestId: string;
  /** It stands where a forced replace could be wanted: its section and confirmation say that none is offered here. */
  saysNoForce: boolean;
  /** Destinations with nothing to do because their outputs drifted are offered a bulk repair of them. */
  offersRepairOfDrifted: boolean;
  /** What one completed apply did, before its duration: "deleted 1 path, wrote 2 files". */
  doneWork: (result: Pick<ApplyResult, 'deleted' | 'written'>) => string;
}

/** The sections are shown in this order: a repair first, the gentler action. */
export const BULK_MODES = {
  repair: {
    kind: 'repair',
    icon: 'shield',
    about:
      'Plans a repair of each destination: only the outputs verify finds drifted are written again, from bytes proven from its configured source; the state and the extra files stay. Each is planned, confirmed once for all, then applied one after another and recorded in the history on its own.',
    confirmLead:
      'A repair of each, one after another: only the outputs verify found drifted are written again, from bytes proven from its configured source, and each is recorded in the history on its own:',
    confirmTail:
      'in all. The state files and extra files stay; what is overwritten is kept in a backup. A refusal or failure of one does not stop the others.',
    planSummaryTestId: 'bulk-repair-plan-summary',
    outcomeSummaryTestId: 'bulk-repair-outcome-summary',
    saysNoForce: false,
    offersRepairOfDrifted: false,
    doneWork: (result) => `wrote ${plural(result.written.length, 'file')}`,
  },
  replace: {
    kind: 'replace',
    icon: 'refresh',
    about:
      'Plans a normal replace of each destination from its configured source: each is planned, confirmed once for all, then applied one after another and recorded in the history on its own. A refusal or failure of one does not stop the others.',
    confirmLead: 'A normal replace of each, one after another, each from its configured source and recorded in the history on its own:',
    confirmTail: 'in all. Extra files are kept; a refusal or failure of one does not stop the others.',
    planSummaryTestId: 'bulk-plan-summary',
    outcomeSummaryTestId: 'bulk-outcome-summary',
    saysNoForce: true,
    offersRepairOfDrifted: true,
    doneWork: (result) => `deleted ${plural(result.deleted.length, 'path')}, wrote ${plural(result.written.length, 'file')}`,
  },
} as const satisfies Record<string, BulkModeFacts>;

/** A bulk run replaces from each configured source, or repairs each one's drifted outputs. */
export type BulkMode = keyof typeof BULK_MODES;

export const BULK_MODE_ORDER = Object.keys(BULK_MODES) as BulkMode[];

export interface BulkModeWords extends BulkModeFacts {
  /** "Repair": the section's heading and the confirmation's title. */
  title: string;
  /** "repair": "Plan repair for 3", "Review and repair 2 destinations…". */
  verb: string;
  /** "Repaired": a completed row's outcome. */
  doneTitle: string;
  /** "repaired": "2 repaired", "1 destination not repaired", a completed row's data-outcome. */
  done: string;
}

/** A bulk mode's facts with its kind's words. */
export function bulkModeOf(mode: BulkMode): BulkModeWords {
  const facts: BulkModeFacts = BULK_MODES[mode];
  const kind = PLAN_KINDS[facts.kind];
  return { ...facts, title: kind.title, verb: kind.noun, doneTitle: kind.doneTitle, done: kind.doneTitle.toLowerCase() };
}
