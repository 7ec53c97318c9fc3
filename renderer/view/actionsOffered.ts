// Which of the Actions tab's sections can apply to a destination, by its status from the disk alone
// (CONTRACT.md): a normal replace needs a valid state or nothing in the folder (rules 1–3), Repair
// needs a valid state to prove bytes against, Adopt a folder with content and no state file. A section that cannot apply is not shown; one sentence
// says why, and what can.

import type { DestinationStatus } from '../../shared/inspection';

export interface ActionsOffered {
  replace: boolean;
  repair: boolean;
  /** Compare the folder with a source bundle, and adopt it when its files already match (an unmanaged folder only). */
  adopt: boolean;
  /** Why a section is not shown, when one is not; undefined when all are. */
  why?: string;
}

export function actionsOffered(status: DestinationStatus | undefined): ActionsOffered {
  switch (status) {
    case 'unmanaged':
      return {
        replace: false,
        repair: false,
        adopt: true,
        why: 'Replace and Repair are not offered: no state file records what is in this folder. Compare it with a source bundle first: if its files already match, Adopt writes only the state file; otherwise a forced replace publishes here, deleting everything in the folder first.',
      };
    case 'invalid':
      return {
        replace: false,
        repair: false,
        adopt: false,
        why: 'Replace and Repair are not offered: the state file is invalid, so nothing it records can be trusted (the Raw state tab shows where). Until it is fixed, only a forced replace can publish here.',
      };
    case 'empty':
      return {
        replace: true,
        repair: false,
        adopt: false,
        why: 'Repair is not offered: nothing has been published here yet. A replace publishes the source.',
      };
    // Managed, or not read yet: every section, and the engine still refuses what does not apply.
    default:
      return { replace: true, repair: true, adopt: false };
  }
}
