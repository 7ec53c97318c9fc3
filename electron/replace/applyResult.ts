// The result an apply fills in as it goes, from its first state (nothing done) on, and the result of
// a plan that is not one. Pure.

import { planKindSchema, type ApplyResult, type ReplacePlan } from '../../shared/plan';

/** What an apply has done before its first step: nothing. Filled in as it goes. */
export function initialResult(mode: ApplyResult['mode'], destinationPath: string): ApplyResult {
  return {
    ok: false,
    mode,
    destinationPath,
    changed: false,
    oldTouched: false,
    stateWritten: false,
    stagingLeft: false,
    deleted: [],
    written: [],
    mutations: 0,
    durationMs: 0,
  };
}

/** A plan that is not one: refused before anything is read, with what little of it can be named. */
export function failedBeforeStart(planInput: ReplacePlan, message: string, startedMs: number): ApplyResult {
  const given = planInput as Partial<ReplacePlan> | undefined;
  return {
    ...initialResult(planKindSchema.safeParse(given?.mode).data ?? 'replace', String(given?.destinationPath ?? '')),
    error: { code: 'invalid_plan', message },
    durationMs: Math.round(performance.now() - startedMs),
  };
}
