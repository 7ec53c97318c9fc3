// Where a row's text matches the search: the same terms the filter matches (rowMatcher: the query
// split on spaces, lower-cased), as segments to draw with <mark>. Pure; called only for the rows on
// screen, never for every row.

export interface Segment {
  text: string;
  match: boolean;
}

export function searchTerms(query: string): string[] {
  return query.trim().toLowerCase().split(/\s+/).filter(Boolean);
}

export function highlightSegments(text: string, terms: readonly string[]): Segment[] {
  if (terms.length === 0 || text === '') return [{ text, match: false }];
  const lower = text.toLowerCase();
  const marked = new Uint8Array(text.length);
  for (const term of terms)
    for (let at = lower.indexOf(term); at !== -1; at = lower.indexOf(term, at + 1)) marked.fill(1, at, at + term.length);
  const segments: Segment[] = [];
  let start = 0;
  for (let i = 1; i <= text.length; i += 1)
    if (i === text.length || marked[i] !== marked[start]) {
      segments.push({ text: text.slice(start, i), match: marked[start] === 1 });
      start = i;
    }
  return segments;
}
