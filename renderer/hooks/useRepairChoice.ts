// The boxes of one repair review: which drifted outputs the operator leaves unticked (kept as they
// are). Starts from the plan shown (all ticked, but for what it already keeps) and starts again with
// every new plan, so a plan made with a selection shows that selection.

import { useState } from 'react';
import type { ReplacePlan } from '../../shared/plan';
import { repairChoicePaths } from '../../shared/repairSelection';
import { initialUnchecked } from '../view/repairChoice';

export function useRepairChoice(planId: string | undefined, plan: ReplacePlan | undefined) {
  const [choice, setChoice] = useState<{ planId: string; unchecked: ReadonlySet<string> }>();
  const unchecked: ReadonlySet<string> =
    planId !== undefined && choice?.planId === planId ? choice.unchecked : plan ? initialUnchecked(plan) : new Set();
  const set = (next: ReadonlySet<string>) => planId !== undefined && setChoice({ planId, unchecked: next });
  return {
    unchecked,
    toggle(path: string, rewrite: boolean) {
      const next = new Set(unchecked);
      if (rewrite) next.delete(path);
      else next.add(path);
      set(next);
    },
    all: () => set(new Set()),
    none: () => set(new Set(plan ? repairChoicePaths(plan) : [])),
  };
}
