import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reconcileDestinations, workspaceChangesText } from './workspaceReload';
import type { WorkspaceDestination } from './workspaceSchema';

const destination = (id: string, extra: Partial<WorkspaceDestination> = {}): WorkspaceDestination => ({
  id,
  path: `/srv/${id}`,
  replacePolicy: 'allow',
  ...extra,
});

const destinationList = fc
  .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 6 })
  .chain((ids) =>
    fc.tuple(
      ...ids.map((id) => fc.record({ source: fc.constantFrom(undefined, '/s/1', '/s/2'), deny: fc.boolean() }).map((o) => ({ id, ...o }))),
    ),
  )
  .map((rows) =>
    rows.map(({ id, source, deny }) => destination(id, { ...(source ? { source } : {}), replacePolicy: deny ? 'deny' : 'allow' })),
  );

describe('reconcileDestinations', () => {
  it('finds nothing changed between a list and itself', () => {
    fc.assert(
      fc.property(destinationList, (list) => {
        expect(reconcileDestinations(list, list)).toEqual({ added: [], removed: [], changed: [] });
      }),
    );
  });

  it('accounts for every id once: added ids are only in the new list, removed only in the old, changed in both', () => {
    fc.assert(
      fc.property(destinationList, destinationList, (before, after) => {
        const { added, removed, changed } = reconcileDestinations(before, after);
        const oldIds = new Set(before.map((d) => d.id));
        const newIds = new Set(after.map((d) => d.id));
        expect(added.every((id) => newIds.has(id) && !oldIds.has(id))).toBe(true);
        expect(removed.every((id) => oldIds.has(id) && !newIds.has(id))).toBe(true);
        expect(changed.every((id) => oldIds.has(id) && newIds.has(id))).toBe(true);
        expect(added.length + removed.length).toBe([...oldIds, ...newIds].filter((id) => oldIds.has(id) !== newIds.has(id)).length);
      }),
    );
  });

  it('counts a destination moved to another path, or given another source, as changed', () => {
    const changes = reconcileDestinations(
      [destination('a'), destination('b'), destination('c')],
      [destination('a', { path: '/elsewhere/a' }), destination('b', { source: '/s/new' }), destination('c')],
    );
    expect(changes).toEqual({ added: [], removed: [], changed: ['a', 'b'] });
  });

  it('says what changed in a few words, the first names listed', () => {
    expect(workspaceChangesText({ added: ['a', 'b', 'c', 'd'], removed: ['x'], changed: [] })).toBe('4 added (a, b, c, …), 1 removed (x)');
    expect(workspaceChangesText({ added: [], removed: [], changed: [] })).toBe('no destination added, removed or changed');
  });
});
