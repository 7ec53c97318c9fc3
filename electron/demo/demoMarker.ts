// The demo folder's marker on disk: read and checked (valid JSON, this generator's own format), written
// atomically, and used to empty a previous demo of exactly the paths it recorded.
// Never deletes a path the marker does not list, and deletes nothing at all when the folder holds
// anything unlisted: it names what it found and leaves the folder as it was.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DEMO_MARKER_FILE, demoMarkerSchema, type DemoMarker } from '../../shared/demoMarkerSchema';
import { formatIssuePath } from '../../shared/issues';
import type { Result } from '../../shared/result';
import { readRegularFile } from '../engine/regularFile';

/** Written first, renamed over the marker: a marker is never half written. */
export const DEMO_MARKER_TEMP = `${DEMO_MARKER_FILE}.writing`;
/** Even the --large demo records well under 1 MB of paths. */
const MAX_MARKER_BYTES = 16 * 1024 * 1024;
const NAMED_AT_MOST = 5;

export type MarkerRead = { kind: 'none' } | { kind: 'bad'; message: string } | { kind: 'ok'; marker: DemoMarker };

export async function readDemoMarker(dir: string): Promise<MarkerRead> {
  const file = path.join(dir, DEMO_MARKER_FILE);
  const read = await readRegularFile(file, { maxBytes: MAX_MARKER_BYTES });
  if (read.kind === 'missing') return { kind: 'none' };
  const refuse = (why: string): MarkerRead => ({
    kind: 'bad',
    message: `${file} ${why}: it is not a marker this demo wrote, so nothing in ${dir} is removed; delete the folder yourself or choose another`,
  });
  if (read.kind === 'not_a_file') return refuse(`is ${read.what}`);
  if (read.kind === 'too_large') return refuse(`is ${read.sizeBytes} bytes, more than a demo marker ever holds`);
  let json: unknown;
  try {
    json = JSON.parse(read.bytes.toString('utf8'));
  } catch (cause) {
    return refuse(`is not valid JSON (${(cause as Error).message})`);
  }
  const parsed = demoMarkerSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    const where = first.path.length > 0 ? `field ${formatIssuePath(first.path as (string | number)[])}` : 'its top level';
    return refuse(`does not have this demo's format (${where}: ${first.message})`);
  }
  return { kind: 'ok', marker: parsed.data };
}

export async function writeDemoMarker(dir: string, marker: DemoMarker): Promise<void> {
  const temp = path.join(dir, DEMO_MARKER_TEMP);
  await fs.writeFile(temp, `${JSON.stringify(marker)}\n`, { flag: 'w', mode: 0o600 });
  await fs.rename(temp, path.join(dir, DEMO_MARKER_FILE));
}

export interface TreeEntry {
  /** Relative to the demo folder, with `/`. */
  relative: string;
  isDirectory: boolean;
}

/** Every entry under `dir` but the marker (and its temporary file), parents first. Never follows a link. */
export async function listDemoTree(dir: string): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  const walk = async (relative: string): Promise<void> => {
    const absolute = relative === '' ? dir : path.join(dir, ...relative.split('/'));
    for (const dirent of await fs.readdir(absolute, { withFileTypes: true })) {
      if (relative === '' && (dirent.name === DEMO_MARKER_FILE || dirent.name === DEMO_MARKER_TEMP)) continue;
      const child = relative === '' ? dirent.name : `${relative}/${dirent.name}`;
      // Dirent types come from the directory (lstat semantics): a link to a folder is a link, not entered.
      entries.push({ relative: child, isDirectory: dirent.isDirectory() });
      if (dirent.isDirectory()) await walk(child);
    }
  };
  await walk('');
  return entries;
}

/** The first few paths, quoted, and how many more. */
export function nameSome(paths: string[]): string {
  const named = paths.slice(0, NAMED_AT_MOST).map((each) => JSON.stringify(each));
  return paths.length > NAMED_AT_MOST ? `${named.join(', ')} and ${paths.length - NAMED_AT_MOST} more` : named.join(', ');
}

/**
 * Empties a previous demo: every entry must be one the marker recorded, else nothing is removed and the
 * answer names the strangers. Files and links are unlinked, folders removed deepest first with rmdir,
 * which refuses a folder that is not empty: whatever appeared meanwhile stays.
 */
export async function removeRecordedDemo(dir: string, marker: DemoMarker): Promise<Result<void, string>> {
  const recorded = new Set(marker.paths);
  const entries = await listDemoTree(dir);
  const strangers = entries.filter((entry) => !recorded.has(entry.relative)).map((entry) => entry.relative);
  if (strangers.length > 0) {
    return {
      ok: false,
      error: `${dir} holds ${strangers.length === 1 ? 'a path' : `${strangers.length} paths`} the earlier demo did not write: ${nameSome(strangers)}. Nothing was removed; move ${strangers.length === 1 ? 'it' : 'them'} away or choose another folder`,
    };
  }
  const deepestFirst = [...entries].reverse();
  for (const entry of deepestFirst) {
    const absolute = path.join(dir, ...entry.relative.split('/'));
    if (entry.isDirectory) await fs.rmdir(absolute);
    else await fs.unlink(absolute);
  }
  return { ok: true, value: undefined };
}
