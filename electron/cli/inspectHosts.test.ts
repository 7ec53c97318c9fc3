// `inspect ssh://… --verify` through the CLI's Session (inspectCommand.ts inspectRemote): the state it
// prints is the one the verify report was taken from, on the host. The host is a real agent Session in this
// process behind a stand-in link (electron/testing/fakeHostLinks.ts), so a publish can land between calls.

import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countingConnector } from '../testing/fakeHostLinks';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import type { CliIo } from './command';
import { inspectRemote } from './inspectCommand';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('inspect-hosts-test')));
afterEach(async () => remove());

const io: CliIo = { stdout: () => {}, stderr: () => {}, isTerminal: false, env: { ...process.env }, cwd: '/' };

describe('inspect ssh://… --verify through the Session', () => {
  it('prints a destination published again after the inspect as the verify read it: inspected again, beside its report', async () => {
    const destination = path.join(dir, 'site');
    writeManagedDestination(destination, { 'index.html': 'first' }, { destinationId: 'site' });
    const { connector, seen } = countingConnector({ 'web-1': { folder: destination } }, (host, method) => {
      if (method === 'verify') {
        const files = { 'index.html': 'second', 'about.html': 'new page' };
        writeManagedDestination(destination, files, { destinationId: 'site', publishedAt: '2026-12-06T18:00:00Z' });
      }
      return undefined;
    });
    const { inspection, verify } = await inspectRemote({ host: 'web-1', path: destination }, {}, true, io, connector);
    expect(seen.asked['web-1']!.slice(-3)).toEqual(['inspectDestination', 'verify', 'inspectDestination']);
    const state = inspection.stateJson as { published_at: string; outputs: { path: string }[] };
    expect([inspection.status, state.published_at]).toEqual(['managed', '2026-12-06T18:00:00Z']);
    expect(JSON.parse(inspection.stateText!)).toEqual(state);
    expect(verify?.status).toBe('intact');
    expect(verify?.outputs.map((output) => output.path).sort()).toEqual(state.outputs.map((output) => output.path).sort());
  });

  it('inspects once when the verify read the very state the inspect did', async () => {
    const destination = path.join(dir, 'site');
    writeManagedDestination(destination, { 'index.html': 'first' }, { destinationId: 'site' });
    const { connector, seen } = countingConnector({ 'web-1': { folder: destination } });
    const { inspection, verify } = await inspectRemote({ host: 'web-1', path: destination }, {}, true, io, connector);
    expect(seen.asked['web-1']!.filter((method) => method === 'inspectDestination')).toHaveLength(1);
    expect(verify?.status).toBe('intact');
    expect((inspection.stateJson as { published_at: string }).published_at).toBe('2026-06-04T12:00:00Z');
  });
});
