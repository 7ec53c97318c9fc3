// Generates the demo workspace: real source bundles, real destinations with real hashes, and a
// workspace file that configures them. What `npm start` opens when given nothing.
// Never deletes anything in a folder that is not empty and was not made by a previous demo.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE_NAME } from '../engine/readSource';
import type { WorkspaceEntry } from '../../shared/workspaceSchema';
import { DEMO_CASES, DEMO_SOURCES, writeFiles, type DemoCase } from './demoCases';
import { writeLargeDestinations, LARGE_DESTINATION_COUNT } from './demoLarge';

export const DEMO_MARKER_FILE = '.distributor-inspector-demo';
export const WORKSPACE_FILE_NAME = 'distributor-inspector.json';

export interface DemoOptions {
  /** 10,000 destinations in all, for trying the list at scale. */
  large?: boolean;
}

export interface DemoSummary {
  dir: string;
  workspaceFile: string;
  sources: string[];
  cases: { name: string; shows: string }[];
  destinationCount: number;
  /** Whether an earlier demo was found and regenerated. */
  replacedPrevious: boolean;
}

export type DemoResult = { ok: true; summary: DemoSummary } | { ok: false; message: string };

export type { WorkspaceEntry } from '../../shared/workspaceSchema';

function entryOf(demoCase: DemoCase): WorkspaceEntry {
  const entry: WorkspaceEntry = {
    path: `destinations/${demoCase.name}`,
    pipeline_id: demoCase.pipelineId,
    destination_id: demoCase.destinationId,
    source: `sources/${demoCase.source}`,
  };
  if (demoCase.baseUrl) entry.base_url = demoCase.baseUrl;
  return entry;
}

/** Checks the folder may be (re)filled: missing, empty, or a previous demo. */
async function prepareDir(dir: string): Promise<{ ok: true; replacedPrevious: boolean } | { ok: false; message: string }> {
  const stat = await fs.lstat(dir).catch(() => undefined);
  if (!stat) {
    await fs.mkdir(dir, { recursive: true });
    return { ok: true, replacedPrevious: false };
  }
  if (!stat.isDirectory()) return { ok: false, message: `${dir} exists and is not a folder` };
  const entries = await fs.readdir(dir);
  if (entries.length === 0) return { ok: true, replacedPrevious: false };
  if (!entries.includes(DEMO_MARKER_FILE)) {
    return { ok: false, message: `${dir} is not empty and holds no earlier demo (no ${DEMO_MARKER_FILE}): choose an empty or new folder` };
  }
  // Only the demo's own top-level entries, so a file a user dropped beside them is kept.
  for (const name of [DEMO_MARKER_FILE, WORKSPACE_FILE_NAME, 'sources', 'destinations']) {
    await fs.rm(path.join(dir, name), { recursive: true, force: true });
  }
  return { ok: true, replacedPrevious: true };
}

export async function createDemoWorkspace(target: string, options: DemoOptions = {}): Promise<DemoResult> {
  const dir = path.resolve(target);
  const prepared = await prepareDir(dir);
  if (!prepared.ok) return prepared;
  // Written first, so that a demo cut short (Ctrl-C) is still recognised and regenerated next time.
  await fs.writeFile(
    path.join(dir, DEMO_MARKER_FILE),
    `${JSON.stringify({ generator: 'distributor-inspector demo', large: Boolean(options.large) })}\n`,
  );

  for (const source of DEMO_SOURCES) {
    const bundleDir = path.join(dir, 'sources', source.name);
    await writeFiles(bundleDir, source.bundle.files);
    await fs.writeFile(path.join(bundleDir, MANIFEST_FILE_NAME), `${JSON.stringify(source.bundle.manifest, null, 2)}\n`);
  }
  const destinations = path.join(dir, 'destinations');
  await fs.mkdir(destinations, { recursive: true });
  for (const demoCase of DEMO_CASES) await demoCase.write?.(path.join(destinations, demoCase.name));

  const entries = DEMO_CASES.map(entryOf);
  if (options.large) entries.push(...(await writeLargeDestinations(destinations, LARGE_DESTINATION_COUNT - entries.length)));

  const workspaceFile = path.join(dir, WORKSPACE_FILE_NAME);
  await fs.writeFile(workspaceFile, `${JSON.stringify({ schema_version: 1, destinations: entries }, null, 2)}\n`);

  return {
    ok: true,
    summary: {
      dir,
      workspaceFile,
      sources: DEMO_SOURCES.map((source) => `sources/${source.name}`),
      cases: DEMO_CASES.map(({ name, shows }) => ({ name, shows })),
      destinationCount: entries.length,
      replacedPrevious: prepared.replacedPrevious,
    },
  };
}
