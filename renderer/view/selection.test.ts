import { describe, expect, it } from 'vitest';
import type { DestinationEntry } from '../../shared/api';
import { buildRows, filterRows } from './destinationRows';
import { initialSelection, placeSelection } from './selection';

const destination = (id: string): DestinationEntry => ({ id, path: `/w/${id}`, replacePolicy: 'allow' });
const rows = buildRows('/w', ['docs-eu', 'docs-us', 'legacy'].map(destination), new Map(), new Map());

describe('where the selection stands against the filtered list', () => {
  it('is shown when the selected row is in the list', () => {
    expect(placeSelection(rows, 'docs-us')).toBe('shown');
  });

  it('is hidden, not moved, when a search leaves other rows but not the selected one', () => {
    const shown = filterRows(rows, { statuses: new Set(), query: 'docs' });
    expect(placeSelection(shown, 'legacy')).toBe('hidden');
    // No row is picked in its place.
    expect(initialSelection(shown, 'legacy')).toBeUndefined();
  });

  it('says the list shows nothing when the search matches no row, whatever was selected', () => {
    const shown = filterRows(rows, { statuses: new Set(), query: 'no-such-destination' });
    expect(placeSelection(shown, 'docs-eu')).toBe('nothing_shown');
  });

  it('is none with nothing selected, and only then picks the first row on its own', () => {
    expect(placeSelection(rows, undefined)).toBe('none');
    expect(initialSelection(rows, undefined)).toBe('docs-eu');
    expect(initialSelection([], undefined)).toBeUndefined();
  });
});
