// The restore of a backup as a plan kind (replace/kinds/applyKind.ts PlanKindModule): planned by
// planRestore.ts, applied by applyRestore.ts, its words in shared/planKinds.ts. It has its own plan
// (a RestorePlan, read from the backup) and its own apply, so it is not one of applyPlan's kinds;
// callers reach it through this module as they reach the others through theirs.

import type { RestorePlan, RestoreResult } from '../../shared/backupSchema';
import type { PlanKindModule } from '../replace/kinds/applyKind';
import { applyRestore, type RestoreOptions } from './applyRestore';
import { planRestore, type RestoreInput } from './planRestore';

export const restoreKind: PlanKindModule<RestoreInput, RestorePlan, RestoreOptions, RestoreResult> = {
  kind: 'restore',
  plan: planRestore,
  applyPlan: applyRestore,
};
