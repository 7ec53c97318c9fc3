// The agent's own watch (issue 24) through its Session, on real folders: `watchDestinations` answers
// how it watches, a burst of edits two folders down is one `destinationChanges` event naming its
// destination once, and thousands of changes over many destinations come as few bounded events.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANGES_INTERVAL_MS, type DestinationChanges } from '../../shared/hostWatch';
import { makeTempDir, removeTempDir } from '../testing/fixtures';
import { callOk } from '../testing/sessionCalls';
import { Session } from './session';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A folder of `count` destinations, each with a file two folders down. */
async function agentWith(count: number, options: { intervalMs?: number } = {}) {
  const root = await makeTempDir('change-feed-');
  for (let index = 0; index < count; index++) {
    await fs.mkdir(path.join(root, `dest-${index}`, 'guide', 'deep'), { recursive: true });
    await fs.writeFile(path.join(root, `dest-${index}`, 'guide', 'deep', 'page.html'), 'first\n');
  }
  const agent = new Session({
    transport: 'agent',
    statCacheFile: false,
    changeFeed: { debounceMs: 50, maxWaitMs: 200, ...options },
  });
  const events: { changes: DestinationChanges; atMs: number }[] = [];
  const waiters: (() => void)[] = [];
  agent.onEvent((event) => {
    if (event.event !== 'destinationChanges') return;
    events.push({ changes: event.data, atMs: Date.now() });
    for (const wake of waiters.splice(0)) wake();
  });
  cleanups.push(async () => {
    await agent.close();
    await removeTempDir(root);
  });
  await callOk(agent, 'openWorkspace', { path: root });
  /** Resolves once an event has named `id` (or at once if one did). */
  const named = async (id: string) => {
    while (!events.some((event) => event.changes.destinations.includes(id))) await new Promise<void>((wake) => waiters.push(wake));
  };
  return { root, agent, events, named };
}

describe('the agent watching its own destinations', () => {
  it('answers that every destination is watched, and is not available where live refresh runs', async () => {
    const { agent } = await agentWith(3);
    expect(await callOk(agent, 'watchDestinations', {})).toEqual({ complete: true, watching: 3, polling: 0 });
    const live = new Session({ transport: 'http', statCacheFile: false });
    cleanups.push(() => live.close());
    await callOk(live, 'openWorkspace', { path: (await agentWith(1)).root });
    const answer = await live.call('watchDestinations', {});
    expect(answer.ok ? undefined : answer.error.code).toBe('not_available');
  });

  it('sends nothing before it is asked, then one event naming the destination once for a burst of edits two folders down', async () => {
    const { root, agent, events, named } = await agentWith(2);
    await fs.writeFile(path.join(root, 'dest-0', 'guide', 'deep', 'page.html'), 'before the subscription\n');
    await callOk(agent, 'watchDestinations', {});
    for (let index = 0; index < 20; index++)
      await fs.appendFile(path.join(root, 'dest-0', 'guide', 'deep', 'page.html'), `edit ${index}\n`);
    await fs.writeFile(path.join(root, 'dest-0', 'guide', 'deep', 'new.html'), 'new\n');
    await named('dest-0');
    // A sentinel in the other destination, after the burst: nothing more about dest-0 comes before it.
    await fs.writeFile(path.join(root, 'dest-1', 'guide', 'deep', 'page.html'), 'sentinel\n');
    await named('dest-1');
    const naming = events.filter((event) => event.changes.destinations.includes('dest-0'));
    expect(naming).toHaveLength(1);
    expect(naming[0]!.changes).toMatchObject({ destinations: ['dest-0'], complete: true });
    expect(Date.parse(naming[0]!.changes.at)).not.toBeNaN();
    // And when it saw the burst's last event: a verify the agent began after it read the whole burst.
    expect(Date.parse(naming[0]!.changes.lastEventAt!)).toBeGreaterThanOrEqual(Date.parse(naming[0]!.changes.at));
  });

  it('coalesces thousands of changes over many destinations into few events, each destination once per event, never two within the interval', async () => {
    const count = 120;
    const { root, agent, events, named } = await agentWith(count);
    await callOk(agent, 'watchDestinations', {});
    const started = Date.now();
    for (let round = 0; round < 25; round++)
      await Promise.all(
        Array.from({ length: count }, (_, index) =>
          fs.appendFile(path.join(root, `dest-${index}`, 'guide', 'deep', 'page.html'), `round ${round}\n`),
        ),
      );
    for (let index = 0; index < count; index++) await named(`dest-${index}`);
    const elapsedMs = Date.now() - started;
    // 3,000 writes: each event names a destination at most once, and they are spaced by the interval.
    for (const event of events) expect(new Set(event.changes.destinations).size).toBe(event.changes.destinations.length);
    for (let index = 1; index < events.length; index++)
      expect(events[index]!.atMs - events[index - 1]!.atMs).toBeGreaterThanOrEqual(CHANGES_INTERVAL_MS - 20);
    expect(events.length).toBeLessThanOrEqual(Math.ceil(elapsedMs / CHANGES_INTERVAL_MS) + 1);
    expect(events.reduce((sum, event) => sum + event.changes.destinations.length, 0)).toBeLessThan(3000 / 5);
  });
});
