// The check that a state the engine is about to write reads back as valid: parseState over the
// very JSON text of it, as a reader will see it. The plan checks its new state, and an apply that
// follows at once checks the same state again (the plan may have come from anywhere); the last text
// found valid is remembered, whole, so that second check of the same text is a string comparison,
// not a second parse of 10,000 records. Only a valid text is remembered; parseState is pure, so a
// text equal to one found valid is valid. Never reads or writes the disk.

import type { Issue } from '../../shared/issues';
import { parseState } from '../../shared/parseDocument';
import type { State } from '../../shared/stateSchema';

let lastValidText: string | undefined;

/** undefined when the state reads back as a valid managed state, else what is wrong with it. */
export function newStateIssues(state: State): Issue[] | undefined {
  const text = JSON.stringify(state);
  if (text === lastValidText) return undefined;
  const check = parseState(text);
  if (check.status !== 'managed') return check.issues;
  lastValidText = text;
  return undefined;
}
