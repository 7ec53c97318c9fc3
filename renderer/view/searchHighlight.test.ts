import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { highlightSegments, searchTerms } from './searchHighlight';

describe('search matches highlighted in a row', () => {
  it('marks every place a term appears, in any case, and merges overlapping marks', () => {
    expect(highlightSegments('docs-EU-docs', searchTerms('DOCS eu'))).toEqual([
      { text: 'docs', match: true },
      { text: '-', match: false },
      { text: 'EU', match: true },
      { text: '-', match: false },
      { text: 'docs', match: true },
    ]);
    expect(highlightSegments('aaa', ['aa'])).toEqual([{ text: 'aaa', match: true }]);
  });

  it('leaves the text whole when nothing matches or nothing is searched', () => {
    expect(highlightSegments('legacy', ['docs'])).toEqual([{ text: 'legacy', match: false }]);
    expect(highlightSegments('legacy', [])).toEqual([{ text: 'legacy', match: false }]);
  });

  it('gives back the text exactly, segment by segment, whatever the query', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ maxLength: 12 }), (text, query) => {
        const segments = highlightSegments(text, searchTerms(query));
        expect(segments.map((segment) => segment.text).join('')).toBe(text);
        // A text that contains no term has no mark.
        const terms = searchTerms(query);
        if (!terms.some((term) => text.toLowerCase().includes(term))) expect(segments.every((segment) => !segment.match)).toBe(true);
      }),
    );
  });
});
