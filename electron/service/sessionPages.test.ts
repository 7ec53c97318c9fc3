// appInfo's first destinations and workspaceDestinations' pages (renderer/state/listPages.ts): a
// large list reaches the page in parts, in workspace order, each part no larger than a page.
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from './session';
import { okValue as value } from '../testing/sessionCalls';
import { makeFixtureWorkspace } from '../testing/sessionFixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function openFixture() {
  const fixture = await makeFixtureWorkspace();
  const session = new Session({ transport: 'http', progressIntervalMs: 0 });
  cleanups.push(async () => {
    await session.close();
    await fixture.remove();
  });
  const workspace = value(await session.call('openWorkspace', { path: fixture.workspace })) as {
    destinations: { id: string }[];
    listReadAt: string;
  };
  return { session, workspace };
}

describe('the open workspace a page at a time', () => {
  it('lists only the first destinations in appInfo when asked, with how many there are', async () => {
    const { session, workspace } = await openFixture();
    const first = value(await session.call('appInfo', { firstDestinations: 1 })) as {
      workspace: { destinations: { id: string }[]; listReadAt: string };
      destinationCount: number;
    };
    expect(first.workspace.destinations.map((d) => d.id)).toEqual(['broken']);
    expect(first.workspace.listReadAt).toBe(workspace.listReadAt);
    expect(first.destinationCount).toBe(4);
    const whole = value(await session.call('appInfo', {})) as { workspace: unknown; destinationCount: number };
    expect(whole).toMatchObject({ workspace, destinationCount: 4 });
  });

  it('answers the rest in workspace order, fewer at the end, with the list it comes from', async () => {
    const { session, workspace } = await openFixture();
    const page = value(await session.call('workspaceDestinations', { from: 1, count: 2 })) as {
      destinations: { id: string }[];
      total: number;
      listReadAt: string;
    };
    expect(page).toMatchObject({ total: 4, listReadAt: workspace.listReadAt });
    expect(page.destinations.map((d) => d.id)).toEqual(['empty-one', 'loose']);
    const last = value(await session.call('workspaceDestinations', { from: 3, count: 20_000 })) as { destinations: unknown[] };
    expect(last.destinations).toEqual([workspace.destinations[3]]);
  });

  it('refuses a page larger than the most one answer lists, and a page before any workspace is open', async () => {
    const { session } = await openFixture();
    expect(await session.call('workspaceDestinations', { from: 0, count: 20_001 })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await session.call('appInfo', { firstDestinations: 0 })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    const closed = new Session({ transport: 'http' });
    cleanups.push(() => closed.close());
    expect(await closed.call('workspaceDestinations', { from: 0, count: 10 })).toMatchObject({
      ok: false,
      error: { code: 'no_workspace' },
    });
  });
});
