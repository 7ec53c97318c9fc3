// A count and its noun in one wording for every front end: "1 error", "2 errors", "1,204 entries";
// never "error(s)". Pure.

import { groupDigits } from './issueCap';

export function plural(count: number, one: string, many = `${one}s`): string {
  // A whole count without Intl: the page's list says its counts on every batch of rows while a scan
  // streams in, and toLocaleString builds a number format per call (the page's first, ~10 ms).
  const digits = Number.isInteger(count) ? groupDigits(count) : count.toLocaleString('en-US');
  return `${digits} ${count === 1 ? one : many}`;
}
