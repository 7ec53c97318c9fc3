// Applies a plan by its id through the one applyPlan job and keeps what it did (the ApplyResult, or
// why it never ran) for the section that asked: the recovery sections of the Actions tab use it.

import { useState } from 'react';
import type { RequestOf } from '../../shared/api';
import type { ApplyOutcome } from '../components/ApplyOutcome';
import { applyPlan } from '../state/actions';

export function useApplyOutcome(destination: string) {
  const [outcome, setOutcome] = useState<ApplyOutcome | undefined>();
  const apply = async (request: RequestOf<'applyPlan'>, label: string): Promise<ApplyOutcome> => {
    const answer = await applyPlan(destination, request, label);
    // The job's result is the ApplyResult, also when refused or failed; an error means it never ran (or was cancelled).
    const next: ApplyOutcome = answer.ok ? { kind: 'result', result: answer.value } : { kind: 'error', error: answer.error };
    setOutcome(next);
    return next;
  };
  return { outcome, apply, clear: () => setOutcome(undefined) };
}
