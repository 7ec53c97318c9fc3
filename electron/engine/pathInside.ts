// Whether one absolute path is another or lies below it, by their text (normalized, absolute paths:
// resolve or realpath them first). For the containment checks of replace/ and the rule that the
// history journal is never inside a destination.

import path from 'node:path';

/** Whether `inner` is `outer` or lies below it (both absolute and normalized). */
export function isInsideOrEqual(inner: string, outer: string): boolean {
  if (inner === outer) return true;
  const prefix = outer.endsWith(path.sep) ? outer : outer + path.sep;
  return inner.startsWith(prefix);
}
