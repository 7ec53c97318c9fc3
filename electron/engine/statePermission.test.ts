// A state file the inspector may not read is reported as permission denied, with its path, owner and
// mode, by both readers (the main thread's and the scan worker's). Root bypasses mode bits, so as
// root the check runs in a child that setpriv has moved to uid/gid 65534 (nobody); without setpriv
// the test is skipped with the reason. The child runs built code (the CLI's dist/cli.js, the probe
// bundled once per file), not TypeScript through tsx: tsx transforms every module at each start.

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, stateFor } from '../testing/fixtureTrees';
import { ensureBuiltCli } from '../testing/sshHarness';
import { bundleForNode } from '../testing/nodeBundle';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const isRoot = process.getuid?.() === 0;
const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;
const skipReason = isRoot && !hasSetpriv ? 'running as root without setpriv: root reads any file, so EACCES cannot be made' : '';
if (skipReason) console.warn(`statePermission.test.ts skipped: ${skipReason}`);

// The probe (inspectDestination and inspectDestinationSync on a destination given as an argument)
// and the CLI, each started as a plain node script by the other user.
let probe: string;
let cli: string;
let removeBuilt: () => Promise<void>;
beforeAll(async () => {
  let built: string;
  ({ dir: built, remove: removeBuilt } = await makeTempDir('state-permission-probe'));
  chmodSync(built, 0o755);
  const entry = path.join(built, 'probe.mts');
  writeFileSync(
    entry,
    [
      `import { inspectDestination } from ${JSON.stringify(path.join(ROOT, 'electron/engine/inspectDestination.ts'))};`,
      `import { inspectDestinationSync } from ${JSON.stringify(path.join(ROOT, 'electron/engine/scanReader.ts'))};`,
      'const dest = process.argv[2];',
      'const result = { async: await inspectDestination(dest), sync: inspectDestinationSync(dest).inspection };',
      'process.stdout.write(JSON.stringify(result));',
    ].join('\n'),
  );
  probe = await bundleForNode(entry, path.join(built, 'probe.mjs'));
  cli = await ensureBuiltCli();
}, 60_000);
afterAll(async () => removeBuilt?.());

/** `node script args…`, as a user who may not read 0600 root files when this runs as root. */
function runAsOtherUser(script: string, args: string[]) {
  const command = [process.execPath, script, ...args];
  return isRoot
    ? spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', ...command], { encoding: 'utf8', cwd: dir })
    : spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', cwd: dir });
}

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('state-permission')));
afterEach(async () => remove());

/** inspectDestination and inspectDestinationSync on `destination`, as a user who may not read 0600 root files. */
function inspectAsOtherUser(destination: string): { async: unknown; sync: unknown } {
  const child = runAsOtherUser(probe, [destination]);
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as { async: unknown; sync: unknown };
}

describe('a state file that cannot be read', () => {
  it.skipIf(Boolean(skipReason))(
    'is invalid with state_unreadable: permission denied, the path, owner and mode, not a raw EACCES',
    () => {
      chmodSync(dir, 0o755);
      const destination = path.join(dir, 'site');
      mkdirSync(destination, { mode: 0o755 });
      chmodSync(destination, 0o755);
      const file = path.join(destination, '.distributor.json');
      writeFileSync(file, JSON.stringify(stateFor({ 'a.txt': 'a' })));
      writeFileSync(path.join(destination, 'a.txt'), 'a');
      chmodSync(file, 0o600);
      const uid = process.getuid?.() ?? 0;
      const asker = isRoot ? 65534 : uid;
      const expected = {
        status: 'invalid',
        hasContent: true,
        issues: [
          {
            path: [],
            code: 'state_unreadable',
            severity: 'error',
            message: `permission denied: ${file} cannot be read by the inspector (owned by uid ${uid}, gid ${process.getgid?.() ?? 0}, mode 0600; the inspector runs as uid ${asker})`,
          },
        ],
      };
      if (!isRoot) chmodSync(file, 0o000);
      const { async, sync } = inspectAsOtherUser(destination);
      if (!isRoot) expected.issues[0]!.message = expected.issues[0]!.message.replace('mode 0600', 'mode 0000');
      expect(async).toMatchObject(expected);
      expect(sync).toMatchObject(expected);
      expect(JSON.stringify(async)).not.toContain('EACCES');
    },
    30_000,
  );

  it.skipIf(Boolean(skipReason))(
    'is said in the CLI as permission denied with the path, and so is a folder that cannot be listed',
    () => {
      chmodSync(dir, 0o755);
      const destination = path.join(dir, 'site');
      mkdirSync(destination, { mode: 0o755 });
      chmodSync(destination, 0o755);
      const file = path.join(destination, '.distributor.json');
      writeFileSync(file, '{}');
      chmodSync(file, isRoot ? 0o600 : 0o000);
      const locked = path.join(dir, 'locked');
      mkdirSync(locked);
      chmodSync(locked, isRoot ? 0o700 : 0o000);
      const inspect = (target: string) => runAsOtherUser(cli, ['inspect', target]);
      const state = inspect(destination);
      expect(state.status).toBe(1);
      expect(state.stdout).toContain(`permission denied: ${file} cannot be read by the inspector`);
      expect(state.stdout + state.stderr).not.toContain('EACCES');
      const folder = inspect(locked);
      expect(folder.status).toBe(2);
      expect(folder.stderr).toBe(
        `distributor-inspector inspect: cannot read destination ${locked}: permission denied (the folder cannot be listed by this user)\n`,
      );
      chmodSync(locked, 0o755);
    },
    60_000,
  );
});
