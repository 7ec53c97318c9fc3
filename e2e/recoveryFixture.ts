// A destination published by this app's own replace (the built CLI), listed in a workspace file with
// its source configured: `dest` (id archive) from `source`. Shared by the recovery specs (repair,
// discard staging, backups and undo). Writes only under the test's own temp folder.

import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './fixtures';

const execFileAsync = promisify(execFile);

export async function recoveryFixture(tempDir: string) {
  const { writeBundle } = await import('../electron/testing/fixtures');
  const root = path.join(tempDir, 'recovery');
  const dest = path.join(root, 'dest');
  const source = path.join(root, 'source');
  await writeBundle(source, { 'report.md': '# Report\n\nThe figures.\n', 'pages/a.md': '# Page A\n', 'data.csv': 'a,b\n1,2\n' });
  await fs.mkdir(dest, { recursive: true });
  const cli = path.join(ROOT, 'bin', 'distributor-inspector.js');
  const history = path.join(tempDir, 'publish-history.jsonl');
  await execFileAsync(process.execPath, [
    cli,
    'replace',
    dest,
    source,
    '--pipeline',
    'reports',
    '--destination',
    'archive',
    '--yes',
    '--history',
    history,
  ]);
  const workspaceFile = path.join(root, 'distributor-inspector.json');
  const workspace = {
    schema_version: 1,
    destinations: [{ path: 'dest', pipeline_id: 'reports', destination_id: 'archive', source: 'source' }],
  };
  await fs.writeFile(workspaceFile, `${JSON.stringify(workspace, null, 2)}\n`);
  return { root, dest, source, workspaceFile };
}
