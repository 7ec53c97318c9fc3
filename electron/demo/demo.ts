// Generates the demo workspace: real source bundles, real destinations with real hashes, and a
// workspace file that configures them. What `npm start` opens when given nothing.
// Once made, a demo is the user's workspace: a later run reopens it as it is (its backups, history
// and changes kept), and only a reset asked for by name makes it afresh (demoReset.ts).
// Writes only into a folder private to the user (demoFolder.ts); deletes only the paths its marker
// recorded (demoMarker.ts), and on a reset also what the app wrote there, never anything else.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DEMO_GENERATOR, DEMO_MARKER_FILE, DEMO_MARKER_FORMAT } from '../../shared/demoMarkerSchema';
import { MANIFEST_FILE_NAME } from '../engine/readSource';
import type { Result } from '../../shared/result';
import type { WorkspaceEntry } from '../../shared/workspaceSchema';
import { DEMO_CASES, DEMO_SOURCES, writeDemoFiles, type DemoCase } from './demoCases';
import { dryRunDemoDisk, realDemoDisk, type DemoDisk } from './demoDisk';
import { preparePrivateFolder } from './demoFolder';
import { readDemoMarker, removeRecordedDemo, writeDemoMarker, listDemoTree } from './demoMarker';
import { demoResetScope, removeDemoForReset } from './demoReset';
import { loadWorkspace } from '../engine/workspace';
import { writeLargeDestinations, LARGE_DESTINATION_COUNT } from './demoLarge';

export { DEMO_MARKER_FILE };
export const WORKSPACE_FILE_NAME = 'distributor-inspector.json';

export interface DemoOptions {
  /** 10,000 destinations in all, for trying the list at scale. */
  large?: boolean;
  /** With `large`: this many destinations in all instead of 10,000 (the UI bench uses 100,000). */
  largeDestinationCount?: number;
  /** Make the demo afresh over an earlier one, removing its backups, history and changes; without it an earlier demo is reopened as it is. */
  reset?: boolean;
}

export interface DemoSummary {
  dir: string;
  workspaceFile: string;
  sources: string[];
  cases: { name: string; shows: string }[];
  destinationCount: number;
  /** Whether an earlier demo was found and made afresh (a reset, or one cut short before its workspace file). */
  replacedPrevious: boolean;
  /** Whether an earlier demo was found and is opened as it is: nothing was written. */
  reopened: boolean;
  /** Whether the demo is the large one (as its marker records: a reopened demo keeps the size it was made with). */
  large: boolean;
  /** With a reset: what went. */
  removed?: { backups: number; historyRecords: number | undefined; addedInDestinations: number };
}

/** The demo made, or why the folder was refused (one sentence naming it; nothing was written). */
export type DemoResult = Result<DemoSummary, string>;

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

type Prepared =
  | { kind: 'fresh'; replacedPrevious: boolean; removed?: DemoSummary['removed'] }
  | { kind: 'reopen'; large: boolean; destinationCount: number };

/**
 * Checks the folder: private to the user, and missing, empty, or an earlier demo (a marker this
 * generator wrote). An earlier demo is reopened as it is; a reset, or a demo cut short before its
 * workspace file was written, empties it first (demoReset.ts, demoMarker.ts).
 */
async function prepareDir(dir: string, reset: boolean): Promise<Result<Prepared, string>> {
  const folder = await preparePrivateFolder(dir);
  if (!folder.ok) return folder;
  const marker = await readDemoMarker(dir);
  if (marker.kind === 'bad') return { ok: false, error: marker.message };
  if (marker.kind === 'none') {
    const entries = await listDemoTree(dir);
    if (entries.length === 0) return { ok: true, value: { kind: 'fresh', replacedPrevious: false } };
    return { ok: false, error: `${dir} is not empty and holds no earlier demo (no ${DEMO_MARKER_FILE}): choose an empty or new folder` };
  }
  const workspaceFile = path.join(dir, WORKSPACE_FILE_NAME);
  const cutShort = !(await fs.lstat(workspaceFile).then(
    (stat) => stat.isFile(),
    () => false,
  ));
  if (cutShort) {
    // The workspace file is written last: without it the demo never finished, and holds only its own paths.
    const removed = await removeRecordedDemo(dir, marker.marker);
    return removed.ok ? { ok: true, value: { kind: 'fresh', replacedPrevious: true } } : removed;
  }
  if (!reset) {
    const load = await loadWorkspace(workspaceFile);
    if (!load.ok) {
      const first = load.issues[0];
      return {
        ok: false,
        error: `${workspaceFile} does not load (${first?.message ?? 'invalid'}): fix it, or make the demo afresh with \`distributor-inspector demo --reset\` (its backups, history and changes go)`,
      };
    }
    return { ok: true, value: { kind: 'reopen', large: marker.marker.large, destinationCount: load.workspace.destinations.length } };
  }
  const scope = await demoResetScope(dir, marker.marker);
  const removed = await removeDemoForReset(dir, scope);
  if (!removed.ok) return removed;
  const { backups, historyRecords, addedInDestinations } = scope;
  return { ok: true, value: { kind: 'fresh', replacedPrevious: true, removed: { backups, historyRecords, addedInDestinations } } };
}

/** Everything the demo writes, through `disk`: the same calls for the dry run and the real one. */
async function writeDemo(disk: DemoDisk, options: DemoOptions) {
  for (const source of DEMO_SOURCES) {
    const bundleDir = `sources/${source.name}`;
    await writeDemoFiles(disk, bundleDir, source.bundle.files);
    await disk.writeFile(`${bundleDir}/${MANIFEST_FILE_NAME}`, `${JSON.stringify(source.bundle.manifest, null, 2)}\n`);
  }
  await disk.mkdir('destinations');
  for (const demoCase of DEMO_CASES) await demoCase.write?.(disk, `destinations/${demoCase.name}`);

  const entries = DEMO_CASES.map(entryOf);
  if (options.large)
    entries.push(
      ...(await writeLargeDestinations(disk, 'destinations', (options.largeDestinationCount ?? LARGE_DESTINATION_COUNT) - entries.length)),
    );
  await disk.writeFile(WORKSPACE_FILE_NAME, `${JSON.stringify({ schema_version: 1, destinations: entries }, null, 2)}\n`);
  return entries;
}

export async function createDemoWorkspace(target: string, options: DemoOptions = {}): Promise<DemoResult> {
  const dir = path.resolve(target);
  const prepared = await prepareDir(dir, options.reset === true);
  if (!prepared.ok) return prepared;
  const described = {
    dir,
    workspaceFile: path.join(dir, WORKSPACE_FILE_NAME),
    sources: DEMO_SOURCES.map((source) => `sources/${source.name}`),
    cases: DEMO_CASES.map(({ name, shows }) => ({ name, shows })),
  };
  if (prepared.value.kind === 'reopen') {
    const { large, destinationCount } = prepared.value;
    return { ok: true, value: { ...described, destinationCount, replacedPrevious: false, reopened: true, large } };
  }
  const fresh = prepared.value;
  // The marker lists every path before the first is written (a dry run in memory tells which), so a
  // demo cut short (Ctrl-C) is still recognised, and emptied of its own paths only, next time.
  const planned = dryRunDemoDisk();
  await writeDemo(planned, options);
  const paths = [...planned.recorded];
  await writeDemoMarker(dir, { generator: DEMO_GENERATOR, format: DEMO_MARKER_FORMAT, large: Boolean(options.large), paths });

  const disk = realDemoDisk(dir);
  const entries = await writeDemo(disk, options);
  const unplanned = [...disk.recorded].filter((relative) => !planned.recorded.has(relative));
  if (unplanned.length > 0) throw new Error(`demo: wrote paths its dry run did not list: ${unplanned.slice(0, 5).join(', ')}`);

  return {
    ok: true,
    value: {
      ...described,
      destinationCount: entries.length,
      replacedPrevious: fresh.replacedPrevious,
      reopened: false,
      large: Boolean(options.large),
      ...(fresh.removed ? { removed: fresh.removed } : {}),
    },
  };
}
