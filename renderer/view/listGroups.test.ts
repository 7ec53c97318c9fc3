import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DestinationRow } from './destinationRows';
import { groupRows, itemAt, itemIndexOfRow, NO_PIPELINE, THIS_MACHINE } from './listGroups';

const rowArb = fc.record({
  pipelineId: fc.option(fc.constantFrom('handbook', 'status', 'Zeta', 'api'), { nil: undefined }),
  host: fc.option(fc.constantFrom('web-1', 'web-2', 'db'), { nil: undefined }),
});
const rowsArb = fc
  .array(rowArb, { maxLength: 40 })
  .map((parts) => parts.map((part, index) => ({ id: `d${index}`, name: `d${index}`, ...part }) as unknown as DestinationRow));
const byArb = fc.constantFrom('pipeline' as const, 'host' as const);
const keyOf = (row: DestinationRow, by: 'pipeline' | 'host') => (by === 'pipeline' ? row.pipelineId : row.host);

describe('the list grouped by pipeline or by host', () => {
  it('shows the rows as the view gave them, with no headers, when grouping is off', () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const grouped = groupRows(rows, 'none');
        expect(grouped.rows).toBe(rows);
        expect(grouped.groups).toEqual([]);
      }),
    );
  });

  it('keeps every row once, each group together, in the view order within it, the rows with none last', () => {
    fc.assert(
      fc.property(rowsArb, byArb, (rows, by) => {
        const { rows: grouped, groups } = groupRows(rows, by);
        expect([...grouped].sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)))).toEqual(rows);
        expect(groups.reduce((sum, group) => sum + group.count, 0)).toBe(rows.length);
        let next = 0;
        for (const group of groups) {
          expect(group.start).toBe(next);
          next += group.count;
          const members = grouped.slice(group.start, group.start + group.count);
          const key = keyOf(members[0]!, by);
          expect(members.every((row) => keyOf(row, by) === key)).toBe(true);
          expect(group.label).toBe(key ?? (by === 'pipeline' ? NO_PIPELINE : THIS_MACHINE));
          // The view's order within the group.
          expect(members).toEqual(rows.filter((row) => keyOf(row, by) === key));
        }
        const named = groups.filter((group) => keyOf(grouped[group.start]!, by) !== undefined).map((group) => group.label);
        expect(named).toEqual([...named].sort());
        const unnamedAt = groups.findIndex((group) => keyOf(grouped[group.start]!, by) === undefined);
        expect(unnamedAt === -1 || unnamedAt === groups.length - 1).toBe(true);
      }),
    );
  });

  it('places a header before each group and finds every row again at its item index', () => {
    fc.assert(
      fc.property(rowsArb, byArb, (rows, by) => {
        const { rows: grouped, groups } = groupRows(rows, by);
        const items = grouped.length + groups.length;
        const seenRows: number[] = [];
        for (let item = 0; item < items; item += 1) {
          const at = itemAt(groups, item);
          if ('row' in at) {
            seenRows.push(at.row);
            expect(itemIndexOfRow(groups, at.row)).toBe(item);
          } else expect(item).toBe(groups[at.header]!.start + at.header);
        }
        expect(seenRows).toEqual(grouped.map((_, index) => index));
      }),
    );
  });

  it('maps item to row one to one with no groups', () => {
    expect(itemAt([], 5)).toEqual({ row: 5 });
    expect(itemIndexOfRow([], 5)).toBe(5);
  });
});
