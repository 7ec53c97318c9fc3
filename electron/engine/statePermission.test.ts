// A state file the inspector may not read is reported as permission denied, with its path, owner and
// mode, by both readers (the main thread's and the scan worker's). Root bypasses mode bits, so as
// root the check runs in a child that setpriv has moved to uid/gid 65534 (nobody); without setpriv
// the test is skipped with the reason.

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, stateFor } from '../testing/fixtureTrees';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const isRoot = process.getuid?.() === 0;
const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;
const skipReason = isRoot && !hasSetpriv ? 'running as root without setpriv: root reads any file, so EACCES cannot be made' : '';
if (skipReason) console.warn(`statePermission.test.ts skipped: ${skipReason}`);

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('state-permission')));
afterEach(async () => remove());

/** Runs a script with inspectDestination and inspectDestinationSync on `destination`, as a user who may not read 0600 root files. */
function inspectAsOtherUser(destination: string): { async: unknown; sync: unknown } {
  const script = path.join(dir, 'probe.mts');
  writeFileSync(
    script,
    [
      `import { inspectDestination } from ${JSON.stringify(path.join(ROOT, 'electron/engine/inspectDestination.ts'))};`,
      `import { inspectDestinationSync } from ${JSON.stringify(path.join(ROOT, 'electron/engine/scanReader.ts'))};`,
      `const dest = ${JSON.stringify(destination)};`,
      'const result = { async: await inspectDestination(dest), sync: inspectDestinationSync(dest).inspection };',
      'process.stdout.write(JSON.stringify(result));',
    ].join('\n'),
  );
  const command = isRoot ? 'setpriv' : TSX;
  const args = isRoot ? ['--reuid=65534', '--regid=65534', '--clear-groups', TSX, script] : [script];
  const child = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, TSX_DISABLE_CACHE: '1' }, cwd: dir });
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
      const cli = (target: string) => {
        const args = [TSX, path.join(ROOT, 'electron/cli.ts'), 'inspect', target];
        return isRoot
          ? spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', ...args], { encoding: 'utf8', cwd: dir })
          : spawnSync(args[0]!, args.slice(1), { encoding: 'utf8', cwd: dir });
      };
      const state = cli(destination);
      expect(state.status).toBe(1);
      expect(state.stdout).toContain(`permission denied: ${file} cannot be read by the inspector`);
      expect(state.stdout + state.stderr).not.toContain('EACCES');
      const folder = cli(locked);
      expect(folder.status).toBe(2);
      expect(folder.stderr).toBe(
        `distributor-inspector inspect: cannot read destination ${locked}: permission denied (the folder cannot be listed by this user)\n`,
      );
      chmodSync(locked, 0o755);
    },
    60_000,
  );
});
