// The demo workspace in a fresh temp folder, for tests of rooms that may not import demo/ themselves
// (the service). Removes only the folder it made.

import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDemoWorkspace } from '../demo/demo';

export interface DemoFixture {
  /** The temp folder holding the demo (in `demo/`), free for a test's own files beside it. */
  dir: string;
  /** The demo folder: its workspace file, `destinations/`, `sources/`. */
  root: string;
  workspaceFile: string;
  remove(): Promise<void>;
}

export async function makeDemoFixture(prefix = 'inspector-demo-'): Promise<DemoFixture> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  const demo = await createDemoWorkspace(path.join(dir, 'demo'));
  if (!demo.ok) throw new Error(demo.error);
  return { dir, root: demo.value.dir, workspaceFile: demo.value.workspaceFile, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}
