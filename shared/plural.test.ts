import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it('says a whole count with its digits grouped as en-US does, with the noun for one or many', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e15, max: 1e15 }), (count) => {
        expect(plural(count, 'destination')).toBe(`${count.toLocaleString('en-US')} destination${count === 1 ? '' : 's'}`);
      }),
    );
    expect(plural(1_799_900, 'entry', 'entries')).toBe('1,799,900 entries');
  });

  it('says a count that is not whole as en-US does', () => {
    expect(plural(1234.5678, 'second')).toBe('1,234.568 seconds');
  });
});
