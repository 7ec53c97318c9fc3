// FIFOs where the browser host reads: libuv runs file calls on four threads, so four opens that
// block on a FIFO would stop every later file call of the host. None may block.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import type { ApiEvent } from '../../shared/api';
import { makeTempDir, removeTempDir, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { Session } from './session';
import { jobEnd } from '../testing/sessionCalls';

const FIFO_STATES = 6;
let dir: string | undefined;
const fifos: string[] = [];

afterEach(async () => {
  // Should a regression block a reader, a writer that opens and closes releases it, so no thread stays stuck.
  for (const fifo of fifos.splice(0)) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody is reading it, as it should be.
    }
  }
  if (dir) await removeTempDir(dir);
});

function mkfifo(file: string): void {
  execFileSync('mkfifo', [file]);
  fifos.push(file);
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | 'hung'> {
  return Promise.race([promise, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), ms))]);
}

describe.skipIf(process.platform === 'win32')('FIFOs in the browser host', () => {
  it('answers many calls on FIFO state files, manifests, outputs and workspace files at once, and file calls still work after', async () => {
    dir = await makeTempDir('session-fifo-');
    const workspace = path.join(dir, 'ws');
    for (let i = 0; i < FIFO_STATES; i++) {
      await fs.mkdir(path.join(workspace, `fifo-state-${i}`), { recursive: true });
      mkfifo(path.join(workspace, `fifo-state-${i}`, STATE_FILE_NAME));
    }
    const manifest = await writeBundle(path.join(dir, 'good-bundle'), { 'a.txt': 'a' });
    await writeManagedDestination(path.join(workspace, 'fifo-outputs'), { manifest, outputs: { 'a.html': 'a', 'b.html': 'b' } });
    for (const name of ['a.html', 'b.html']) {
      await fs.rm(path.join(workspace, 'fifo-outputs', name));
      mkfifo(path.join(workspace, 'fifo-outputs', name));
    }
    await fs.mkdir(path.join(dir, 'fifo-bundle'));
    mkfifo(path.join(dir, 'fifo-bundle', 'manifest.json'));
    mkfifo(path.join(dir, 'distributor-inspector.json'));

    const session = new Session({ transport: 'http', progressIntervalMs: 0 });
    const other = new Session({ transport: 'http' });
    try {
      expect(await session.call('openWorkspace', { path: workspace })).toMatchObject({ ok: true });
      const ids = Array.from({ length: FIFO_STATES }, (_, i) => `fifo-state-${i}`);
      const scan = await session.call('scan', {});
      const verify = await session.call('verify', { destinations: ['fifo-outputs'] });
      const ends = [scan, verify].map((started) => jobEnd(session, (started as { ok: true; value: { job: string } }).value.job));
      const calls = [
        ...ids.map((id) => session.call('inspectDestination', { destination: id })),
        ...ids.map((id) => session.call('compare', { destination: id, source: path.join(dir!, 'fifo-bundle') })),
        ...Array.from({ length: 4 }, () => other.call('openWorkspace', { path: path.join(dir!, 'distributor-inspector.json') })),
        ...ends,
      ];
      const answered = await within(Promise.all(calls), 10_000);
      expect(answered).not.toBe('hung');
      const results = answered as unknown[];
      expect(results.slice(0, FIFO_STATES)).toEqual(
        ids.map(() =>
          expect.objectContaining({
            ok: true,
            value: expect.objectContaining({
              inspection: expect.objectContaining({
                status: 'invalid',
                issues: [expect.objectContaining({ message: expect.stringContaining('is a FIFO (named pipe), not a state file') })],
              }),
            }),
          }),
        ),
      );
      expect(results[FIFO_STATES]).toMatchObject({
        ok: false,
        error: { code: 'invalid_source', message: expect.stringContaining('is a FIFO (named pipe)') },
      });
      expect(results[2 * FIFO_STATES]).toMatchObject({ ok: false, error: { message: expect.stringContaining('is a FIFO (named pipe)') } });
      const verified = results[results.length - 1] as ApiEvent;
      expect(verified).toMatchObject({ event: 'result' });

      // The threads are free: a plain file call answers at once.
      expect(await within(fs.readFile(path.join(dir, 'good-bundle', 'manifest.json'), 'utf8'), 2000)).toContain('"files"');
    } finally {
      await session.close();
      await other.close();
    }
  }, 30_000);
});
