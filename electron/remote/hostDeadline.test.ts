// Which handshake deadline the one host connector (hostConnector.ts) gives a host, on a fake clock:
// the host's own `connect_timeout` from the workspace file (the app's only way to allow a slow host
// longer, set in its Edit host dialog), the CLI's --connect-timeout over it, else 60 s. A stand-in ssh
// that never answers is stopped at that deadline, and the failure says where the operator can allow longer.
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceHost } from '../../shared/workspaceSchema';
import { FakeClock } from '../testing/fakeClock';
import { makeTempDir } from '../testing/fixtureTrees';
import { processEnd } from '../testing/processEnded';
import { sshHostConnector } from './hostConnector';
import { RemoteFailure } from './sshFailures';

let dir: string;
let remove: () => Promise<void>;
let hungSsh: string;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('host-deadline'));
  hungSsh = path.join(dir, 'hung-ssh');
  await fs.writeFile(hungSsh, `#!/bin/sh\necho $$ > ${dir}/hung.pid\nexec sleep 600\n`, { mode: 0o755 });
});
afterEach(async () => remove());

/** Connects `host` through a hung ssh; answers the deadline set and, once it passed, the failure. */
async function deadlineOf(host: WorkspaceHost, connectTimeoutMs?: number) {
  const clock = new FakeClock();
  const connect = sshHostConnector({
    env: { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: hungSsh },
    ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
    clock,
  });
  const failed = connect(host).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  const pidFile = path.join(dir, 'hung.pid');
  while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '' || clock.pending().length === 0)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const pid = Number(readFileSync(pidFile, 'utf8'));
  const [waitMs] = clock.pending();
  clock.advance(waitMs!);
  const failure = await failed;
  await processEnd(pid);
  // The next connect's stand-in writes its own.
  await fs.rm(pidFile);
  return { waitMs, failure: failure as RemoteFailure };
}

const host: WorkspaceHost = { name: 'web-1', url: 'ssh://web-1.example/srv/www' };

describe("a host's handshake deadline", () => {
  it("is the host's connect_timeout from the workspace file, and its failure says where to raise it", async () => {
    const { waitMs, failure } = await deadlineOf({ ...host, connectTimeoutMs: 150_000 });
    expect(waitMs).toBe(150_000);
    expect(failure).toBeInstanceOf(RemoteFailure);
    expect(failure.code).toBe('connect_timeout');
    expect(failure.message).toMatch(/within 150 s, so ssh was stopped/);
    expect(failure.message).toMatch(/allow longer in the "Connect timeout" field of Edit host web-1\.$/);
  });

  it("is the CLI's --connect-timeout over the host's own, and 60 s when neither is given", async () => {
    expect((await deadlineOf({ ...host, connectTimeoutMs: 150_000 }, 2_500)).waitMs).toBe(2_500);
    expect((await deadlineOf(host)).waitMs).toBe(60_000);
  });
});
