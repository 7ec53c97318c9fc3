import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  NO_SELECTION,
  bulkIds,
  collapse,
  gestureOf,
  isSelected,
  selectAll,
  selectByGesture,
  selectOnly,
  shownRange,
  withoutRemoved,
  type MultiSelection,
  type SelectGesture,
} from './multiSelection';

const shown = ['a', 'b', 'c', 'd', 'e', 'f'];
const ids = (selection: MultiSelection) => [...selection.ids].sort();
const click = (selection: MultiSelection, id: string, gesture: SelectGesture = 'one') => selectByGesture(selection, shown, id, gesture);

describe('selecting several destinations', () => {
  it('reads ctrl or cmd as a toggle, shift as a range, and both as adding a range', () => {
    expect(gestureOf({ shiftKey: false, ctrlKey: false, metaKey: false })).toBe('one');
    expect(gestureOf({ shiftKey: false, ctrlKey: true, metaKey: false })).toBe('toggle');
    expect(gestureOf({ shiftKey: false, ctrlKey: false, metaKey: true })).toBe('toggle');
    expect(gestureOf({ shiftKey: true, ctrlKey: false, metaKey: false })).toBe('range');
    expect(gestureOf({ shiftKey: true, ctrlKey: true, metaKey: false })).toBe('add_range');
  });

  it('selects one row on a plain click, whatever was selected before', () => {
    const many = selectAll(NO_SELECTION, shown);
    expect(click(many, 'c')).toEqual({ primary: 'c', ids: new Set(['c']), anchor: 'c' });
  });

  it('adds and removes one row on ctrl-click, and a single selection set before counts as selected', () => {
    const single: MultiSelection = { primary: 'b', ids: new Set(), anchor: undefined };
    const two = click(single, 'd', 'toggle');
    expect(ids(two)).toEqual(['b', 'd']);
    expect(two.primary).toBe('d');
    const back = click(two, 'd', 'toggle');
    expect(ids(back)).toEqual(['b']);
    expect(back.primary).toBe('b');
    expect(click(back, 'b', 'toggle')).toEqual({ primary: undefined, ids: new Set(), anchor: 'b' });
  });

  it('selects the shown rows between the anchor and the row shift-clicked, upwards as downwards', () => {
    const start = click(NO_SELECTION, 'b');
    expect(ids(click(start, 'e', 'range'))).toEqual(['b', 'c', 'd', 'e']);
    const fromE = click(NO_SELECTION, 'e');
    const up = click(fromE, 'b', 'range');
    expect(ids(up)).toEqual(['b', 'c', 'd', 'e']);
    // The anchor stays: a second shift-click re-spans from it.
    expect(ids(click(up, 'f', 'range'))).toEqual(['e', 'f']);
  });

  it('adds a range to what was selected on ctrl+shift-click', () => {
    const picked = click(click(NO_SELECTION, 'a'), 'c', 'toggle');
    expect(ids(click(picked, 'e', 'add_range'))).toEqual(['a', 'c', 'd', 'e']);
  });

  it('selects only the row clicked when the anchor is hidden by the filter', () => {
    const hiddenAnchor: MultiSelection = { primary: 'z', ids: new Set(['z']), anchor: 'z' };
    expect(click(hiddenAnchor, 'c', 'range')).toEqual(selectOnly('c'));
  });

  it('selects every given row, keeping the primary when it is among them, and collapses back to it', () => {
    const all = selectAll(click(NO_SELECTION, 'c'), ['b', 'c', 'd']);
    expect(all.primary).toBe('c');
    expect(ids(all)).toEqual(['b', 'c', 'd']);
    expect(selectAll(all, ['e', 'f']).primary).toBe('e');
    expect(selectAll(all, [])).toBe(all);
    expect(collapse(all)).toEqual(selectOnly('c'));
    expect(collapse(NO_SELECTION)).toEqual(NO_SELECTION);
  });

  it('shows rows as selected from the set when two or more are, else from the primary', () => {
    expect(isSelected({ primary: 'a', ids: new Set() }, 'a')).toBe(true);
    expect(isSelected({ primary: 'a', ids: new Set(['b', 'c']) }, 'a')).toBe(false);
    expect(isSelected({ primary: 'a', ids: new Set(['b', 'c']) }, 'b')).toBe(true);
  });

  it('lists a bulk selection in the order shown, then the rows the filter hides in workspace order', () => {
    const selection = { ids: new Set(['f', 'x', 'b', 'y']) };
    expect(bulkIds(selection, shown, ['y', 'a', 'b', 'x', 'f'])).toEqual(['b', 'f', 'y', 'x']);
    expect(bulkIds({ ids: new Set(['b']) }, shown, shown)).toEqual([]);
  });

  it('drops destinations the workspace no longer lists, moving the primary and the anchor to one still there', () => {
    const selection: MultiSelection = { primary: 'c', ids: new Set(['a', 'c']), anchor: 'c' };
    expect(withoutRemoved(selection, new Set(['c']))).toEqual({ primary: 'a', ids: new Set(['a']), anchor: 'a' });
    expect(withoutRemoved(selection, new Set())).toBe(selection);
  });
});

const shownIdsArb = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 30 });

describe('a shift-click range (properties)', () => {
  it('is exactly the contiguous shown rows from the anchor to the row clicked, whatever was selected before', () => {
    fc.assert(
      fc.property(shownIdsArb, fc.nat(), fc.nat(), fc.array(fc.string({ maxLength: 4 })), (shownIds, anchorAt, clickAt, before) => {
        const anchor = shownIds[anchorAt % shownIds.length]!;
        const target = shownIds[clickAt % shownIds.length]!;
        const selection: MultiSelection = { primary: anchor, ids: new Set([...before, anchor]), anchor };
        const after = selectByGesture(selection, shownIds, target, 'range');
        const i = shownIds.indexOf(anchor);
        const j = shownIds.indexOf(target);
        expect([...after.ids].sort()).toEqual(shownIds.slice(Math.min(i, j), Math.max(i, j) + 1).sort());
        expect(after.ids.size).toBe(Math.abs(i - j) + 1);
        expect(after.primary).toBe(target);
        expect(after.anchor).toBe(anchor);
      }),
    );
  });

  it('is the same range read either way, and ctrl+shift keeps everything selected before', () => {
    fc.assert(
      fc.property(shownIdsArb, fc.nat(), fc.nat(), fc.subarray(['p', 'q', 'r']), (shownIds, a, b, before) => {
        const from = shownIds[a % shownIds.length]!;
        const to = shownIds[b % shownIds.length]!;
        expect(new Set(shownRange(shownIds, from, to))).toEqual(new Set(shownRange(shownIds, to, from)));
        const selection: MultiSelection = { primary: from, ids: new Set([...before, from]), anchor: from };
        const added = selectByGesture(selection, shownIds, to, 'add_range');
        for (const id of [...before, ...shownRange(shownIds, from, to)]) expect(added.ids.has(id)).toBe(true);
      }),
    );
  });

  it('keeps the primary selected after any sequence of clicks, and nothing but shown rows or rows selected before', () => {
    const gesture = fc.constantFrom<SelectGesture>('one', 'toggle', 'range', 'add_range');
    fc.assert(
      fc.property(shownIdsArb, fc.array(fc.tuple(fc.nat(), gesture), { maxLength: 20 }), (shownIds, clicks) => {
        let selection: MultiSelection = NO_SELECTION;
        for (const [at, kind] of clicks) selection = selectByGesture(selection, shownIds, shownIds[at % shownIds.length]!, kind);
        if (selection.primary !== undefined) expect(selection.ids.has(selection.primary)).toBe(true);
        else expect(selection.ids.size).toBe(0);
        for (const id of selection.ids) expect(shownIds).toContain(id);
      }),
    );
  });
});
