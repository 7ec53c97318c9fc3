// Which of the Actions tab's sections can apply to a destination, by its status from the disk alone
// (CONTRACT.md): a normal replace needs a valid state or nothing in the folder (rules 1–3), Repair
// needs a valid state to prove bytes against. A section that cannot apply is not shown; one sentence
// says why, and what can.

import type { DestinationStatus } from '../../shared/inspection';

export interface ActionsOffered {
  replace: boolean;
  repair: boolean;
  /** Why a section is not shown, when one is not; undefined when all are. */
  why?: string;
}

export function actionsOffered(status: DestinationStatus | undefined): ActionsOffered {
  switch (status) {
    case 'unmanaged':
      return {
        replace: false,
        repair: false,
        why: 'Replace and Repair are not offered: no state file records what is in this folder. Only a forced replace can publish here; it deletes everything in the folder first.',
      };
    case 'invalid':
      return {
        replace: false,
        repair: false,
        why: 'Replace and Repair are not offered: the state file is invalid, so nothing it records can be trusted (the Raw state tab shows where). Until it is fixed, only a forced replace can publish here.',
      };
    case 'empty':
      return {
        replace: true,
        repair: false,
        why: 'Repair is not offered: nothing has been published here yet. A replace publishes the source.',
      };
    // Managed, or not read yet: every section, and the engine still refuses what does not apply.
    default:
      return { replace: true, repair: true };
  }
}
