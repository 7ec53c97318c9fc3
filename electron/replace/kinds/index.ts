// The one place the apply reads a plan's kind string: each kind is one module (docs/plan-kinds.md).

import type { PlanKind } from '../../../shared/plan';
import { adoptKind } from './adopt';
import type { ApplyKind } from './applyKind';
import { discardStagingKind } from './discardStaging';
import { forceKind } from './force';
import { repairKind } from './repair';
import { replaceKind } from './replace';

const APPLY_KINDS: Readonly<Record<PlanKind, ApplyKind>> = {
  replace: replaceKind,
  force: forceKind,
  repair: repairKind,
  discard_staging: discardStagingKind,
  adopt: adoptKind,
};

export function applyKindOf(kind: PlanKind): ApplyKind {
  return APPLY_KINDS[kind];
}
