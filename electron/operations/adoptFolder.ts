// operations/: may be imported by service/ and cli/. The folder compare of a destination against a
// source bundle (replace/compareFolder.ts) and the plan that adopts a folder whose files already
// match (replace/planAdopt.ts), written once for the Session. An adopt removes and overwrites
// nothing, and its undo removes only the state it wrote: one explicit confirmation, no typed id.
// Read-only.

import type { FolderCompare } from '../../shared/folderCompare';
import type { PlanRefusal } from '../../shared/plan';
import type { Result } from '../../shared/result';
import { compareFolder, type CompareFolderInput } from '../replace/compareFolder';
import { planAdopt, type PlanAdoptInput } from '../replace/planAdopt';
import type { PlannedReplace } from './planDestinationReplace';

export function compareDestinationFolder(input: CompareFolderInput): Promise<Result<FolderCompare, PlanRefusal>> {
  return compareFolder(input);
}

export async function planDestinationAdopt(input: PlanAdoptInput): Promise<Result<PlannedReplace, PlanRefusal>> {
  const outcome = await planAdopt(input);
  return outcome.ok ? { ok: true, value: { plan: outcome.value } } : outcome;
}
