import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventOf } from '../../shared/api';
import { WORKSPACE_FILE_NAME } from '../../shared/workspaceSchema';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import { callOk as call, jobEnd, okValue as value } from '../testing/sessionCalls';
import { Session, type SessionOptions } from './session';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function folder() {
  const { dir, remove } = await makeTempDir('session-auto-verify');
  cleanups.push(remove);
  return dir;
}

function start(options: Partial<SessionOptions>) {
  const session = new Session({ transport: 'http', progressIntervalMs: 0, ...options });
  cleanups.unshift(() => session.close());
  return session;
}

async function until(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the auto-verify setting', () => {
  it('is on by default, turns off and on, and is kept in the preferences file for the next session', async () => {
    const dir = await folder();
    const preferencesFile = path.join(dir, 'state', 'preferences.json');
    const first = start({ preferencesFile, liveRefresh: { debounceMs: 50, maxWaitMs: 200 } });
    expect(await call(first, 'autoVerifySetting', {})).toEqual({ enabled: true });
    expect(await call(first, 'setAutoVerify', { enabled: false })).toEqual({ enabled: false });
    expect(JSON.parse(readFileSync(preferencesFile, 'utf8'))).toEqual({ autoVerify: false });
    const second = start({ preferencesFile, liveRefresh: { debounceMs: 50, maxWaitMs: 200 } });
    expect(await call(second, 'autoVerifySetting', {})).toEqual({ enabled: false });
    expect(await call(second, 'setAutoVerify', { enabled: true })).toEqual({ enabled: true });
    expect(JSON.parse(readFileSync(preferencesFile, 'utf8'))).toEqual({ autoVerify: true });
  });

  it('keeps a corrupt preferences file from mattering: the defaults, and a save replaces it', async () => {
    const dir = await folder();
    const preferencesFile = path.join(dir, 'preferences.json');
    writeFileSync(preferencesFile, '{"autoVerify": "sometimes"');
    const session = start({ preferencesFile, liveRefresh: {} });
    expect(await call(session, 'autoVerifySetting', {})).toEqual({ enabled: true });
    await call(session, 'setAutoVerify', { enabled: false });
    expect(JSON.parse(readFileSync(preferencesFile, 'utf8'))).toEqual({ autoVerify: false });
  });

  it('says why it cannot move where the environment turned it off, or nothing is watched', async () => {
    const was = process.env.DISTRIBUTOR_INSPECTOR_AUTO_VERIFY;
    process.env.DISTRIBUTOR_INSPECTOR_AUTO_VERIFY = 'off';
    let fixed: Session;
    try {
      fixed = start({ liveRefresh: {} });
    } finally {
      if (was === undefined) delete process.env.DISTRIBUTOR_INSPECTOR_AUTO_VERIFY;
      else process.env.DISTRIBUTOR_INSPECTOR_AUTO_VERIFY = was;
    }
    expect(await call(fixed, 'setAutoVerify', { enabled: true })).toEqual({
      enabled: false,
      fixedBy: expect.stringContaining('DISTRIBUTOR_INSPECTOR_AUTO_VERIFY=off'),
    });
    expect(await call(start({ transport: 'agent' }), 'autoVerifySetting', {})).toMatchObject({
      enabled: false,
      fixedBy: expect.any(String),
    });
  });

  it('turned off, leaves a destination that changed on disk stale; turned on again, verifies the next change by itself', async () => {
    const dir = await folder();
    writeManagedDestination(path.join(dir, 'alpha'), { 'index.html': 'alpha', 'guide/install.html': 'install' });
    const file = path.join(dir, WORKSPACE_FILE_NAME);
    writeFileSync(file, JSON.stringify({ schema_version: 1, destinations: [{ path: 'alpha', destination_id: 'alpha' }] }));
    const session = start({
      liveRefresh: { debounceMs: 50, maxWaitMs: 200, pollIntervalMs: 100 },
      statCacheFile: path.join(dir, 'cache.json'),
    });
    const live: EventOf<'liveRefresh'>[] = [];
    session.onEvent((event) => event.event === 'liveRefresh' && live.push(event.data));
    await call(session, 'openWorkspace', { path: file });
    await call(session, 'liveRefreshStatus', {});
    const { job } = value(await session.call('verify', {})) as { job: string };
    await jobEnd(session, job);
    await call(session, 'setAutoVerify', { enabled: false });

    writeFileSync(path.join(dir, 'alpha', 'guide', 'install.html'), 'INSTALL');
    await until(() => live.some((event) => event.kind === 'destinations'));
    const health = async () =>
      (
        JSON.parse((value(await session.call('exportReport', { format: 'json' })) as { content: string }).content) as {
          destinations: { verify?: { health: string } }[];
        }
      ).destinations[0]?.verify?.health;
    expect(await health()).toBe('stale');

    await call(session, 'setAutoVerify', { enabled: true });
    writeFileSync(path.join(dir, 'alpha', 'guide', 'install.html'), 'install');
    await until(() => live.some((event) => event.kind === 'verified'));
    // Only the change after the switch was verified: no verify ran while it was off.
    expect(live.filter((event) => event.kind === 'verified')).toHaveLength(1);
    expect(await health()).toBe('intact');
  });
});
