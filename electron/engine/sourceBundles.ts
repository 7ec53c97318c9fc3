// Finds the source bundles of a workspace: every folder under the workspace's folder (a few levels
// down) that holds a manifest.json, and every source the workspace file configures, wherever it is.
// Reads only: never follows a symbolic link while searching (a configured source is read as named),
// never descends into a destination, a hidden folder or a bundle, and stops at fixed bounds so a
// 10,000-destination workspace costs one directory read per folder it passes, not a walk of outputs.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { formatIssuePath } from '../../shared/issues';
import { sortSourceBundles, type SourceBundleEntry, type SourceBundleList } from '../../shared/sourceBundles';
import type { LoadedWorkspace } from '../../shared/workspaceSchema';
import { MANIFEST_FILE_NAME, readSource } from './readSource';
import { bundleFolderOf } from './sourceManifests';

export interface SourceBundleBounds {
  /** How many levels below the workspace folder a bundle may sit (`sources/handbook` is 2). */
  maxDepth: number;
  /** Folders read before the search stops (and says so). */
  maxFolders: number;
  maxBundles: number;
}

export const SOURCE_BUNDLE_BOUNDS: SourceBundleBounds = { maxDepth: 3, maxFolders: 5_000, maxBundles: 500 };

function shownPathOf(root: string, bundle: string): string {
  const relative = path.relative(root, bundle);
  if (relative === '') return '.';
  if (relative.startsWith('..') || path.isAbsolute(relative)) return bundle;
  return relative.split(path.sep).join('/');
}

async function holdsManifest(folder: string): Promise<boolean> {
  return fs.lstat(path.join(folder, MANIFEST_FILE_NAME)).then(
    (stat) => !stat.isDirectory(),
    () => false,
  );
}

/** Breadth first, so a shallow bundle is found before the bounds are reached. */
async function searchFolders(root: string, skip: ReadonlySet<string>, bounds: SourceBundleBounds) {
  const found: string[] = [];
  let read = 0;
  let level: string[] = [root];
  for (let depth = 0; depth <= bounds.maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      if (read >= bounds.maxFolders || found.length >= bounds.maxBundles) return { found, truncated: true };
      if (depth > 0 && (await holdsManifest(folder))) {
        found.push(folder);
        continue;
      }
      if (depth === bounds.maxDepth) continue;
      read++;
      const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        // Dirent types are lstat's: a link to a folder is a link, not searched.
        if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
        const child = path.join(folder, entry.name);
        if (!skip.has(child)) next.push(child);
      }
    }
    level = next.sort();
  }
  return { found, truncated: false };
}

async function describe(folder: string, root: string, configuredFor: string[]): Promise<SourceBundleEntry> {
  const read = await readSource(folder);
  const base = { path: folder, shownPath: shownPathOf(root, folder), configuredFor };
  if (!read.ok) {
    const first = read.issues[0];
    const where = first && first.path.length > 0 ? `${formatIssuePath(first.path)}: ` : '';
    return { ...base, problem: `${path.basename(read.manifestFile)}: ${where}${first?.message ?? 'cannot be read'}` };
  }
  const { manifest } = read;
  const version = typeof manifest.version === 'string' ? manifest.version : undefined;
  return {
    ...base,
    manifest: {
      id: manifest.id,
      digest: manifest.digest,
      created: manifest.created,
      fileCount: manifest.files.length,
      ...(version !== undefined ? { version } : {}),
    },
  };
}

export async function listSourceBundles(
  workspace: Pick<LoadedWorkspace, 'root' | 'destinations'>,
  bounds: SourceBundleBounds = SOURCE_BUNDLE_BOUNDS,
): Promise<SourceBundleList> {
  const { root } = workspace;
  const configured = new Map<string, string[]>();
  for (const destination of workspace.destinations) {
    if (destination.source === undefined) continue;
    const folder = bundleFolderOf(path.resolve(destination.source));
    configured.set(folder, [...(configured.get(folder) ?? []), destination.id]);
  }
  const destinations = new Set(workspace.destinations.map((destination) => path.resolve(destination.path)));
  // A workspace that is one destination is its own root: nothing under it is a bundle of its own.
  const searched = destinations.has(path.resolve(root))
    ? { found: [], truncated: false }
    : await searchFolders(path.resolve(root), destinations, bounds);
  const folders = new Set([...searched.found, ...configured.keys()]);
  const bundles = await Promise.all([...folders].map((folder) => describe(folder, root, configured.get(folder) ?? [])));
  return { root, bundles: sortSourceBundles(bundles), truncated: searched.truncated };
}
