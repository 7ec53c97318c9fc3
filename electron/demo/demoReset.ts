// What resetting a demo folder removes, and the removal itself. A demo is the user's workspace once
// opened: the app keeps its backups and history journal beside the workspace file, and a replace or a
// repair writes inside the demo's destinations. A reset (asked for by name: `demo --reset`, or the
// app's "Reset demo workspace…") removes exactly those and what the marker recorded.
// Never removes anything when the folder holds a path outside them (a folder the user added under
// destinations/, a file in a source bundle, anything at the top): it names them and leaves the folder
// as it was. Never follows a link: links are unlinked, folders removed with rmdir, deepest first.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { BACKUPS_FOLDER_NAME } from '../../shared/backupSchema';
import type { DemoMarker } from '../../shared/demoMarkerSchema';
import type { Result } from '../../shared/result';
import { readRegularFile } from '../engine/regularFile';
import { HISTORY_FILE_NAME } from '../history/journalPath';
import { listDemoTree, nameSome, type TreeEntry } from './demoMarker';

/** A journal past this is still removed; its records are then counted as "many". */
const MAX_COUNTED_JOURNAL_BYTES = 64 * 1024 * 1024;

export interface DemoResetScope {
  /** Backups the app kept in the demo's backups folder (one per apply that removed or overwrote files). */
  backups: number;
  /** Records in the demo's history journal (every apply, refused and failed ones too); undefined when too large to count. */
  historyRecords: number | undefined;
  /** Paths inside the demo's own destinations that the demo did not write (what applies added). */
  addedInDestinations: number;
  /** Paths neither the demo, its applies, nor the app's records wrote: a reset refuses while any is there. */
  strangers: string[];
  /** Everything a reset removes, parents first. */
  entries: TreeEntry[];
}

/** Whether a path is one the app keeps beside the demo's workspace file: its backups or its journal. */
function isAppRecord(relative: string): boolean {
  return relative === HISTORY_FILE_NAME || relative === BACKUPS_FOLDER_NAME || relative.startsWith(`${BACKUPS_FOLDER_NAME}/`);
}

/** Whether a path lies inside one of the demo's own destination folders (`destinations/NAME/…`, NAME recorded). */
function isInsideDemoDestination(relative: string, recorded: ReadonlySet<string>): boolean {
  const parts = relative.split('/');
  return parts.length >= 3 && parts[0] === 'destinations' && recorded.has(`destinations/${parts[1]}`);
}

async function countJournalRecords(file: string): Promise<number | undefined> {
  const read = await readRegularFile(file, { maxBytes: MAX_COUNTED_JOURNAL_BYTES });
  if (read.kind !== 'bytes') return read.kind === 'missing' ? 0 : undefined;
  return read.bytes
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '').length;
}

/** What a reset of the demo in `dir` would remove, read from the disk; changes nothing. */
export async function demoResetScope(dir: string, marker: DemoMarker): Promise<DemoResetScope> {
  const recorded = new Set(marker.paths);
  const entries = await listDemoTree(dir);
  const scope: DemoResetScope = { backups: 0, historyRecords: 0, addedInDestinations: 0, strangers: [], entries: [] };
  for (const entry of entries) {
    const { relative } = entry;
    if (recorded.has(relative)) scope.entries.push(entry);
    else if (isAppRecord(relative)) {
      scope.entries.push(entry);
      // `.inspector-backups/DESTINATION/BACKUP-ID`: one folder per backup.
      if (entry.isDirectory && relative.split('/').length === 3) scope.backups++;
    } else if (isInsideDemoDestination(relative, recorded)) {
      scope.entries.push(entry);
      scope.addedInDestinations++;
    } else scope.strangers.push(relative);
  }
  if (entries.some((entry) => entry.relative === HISTORY_FILE_NAME))
    scope.historyRecords = await countJournalRecords(path.join(dir, HISTORY_FILE_NAME));
  return scope;
}

/** The refusal when a reset would have to remove what is not the demo's: names them, removes nothing. */
export function strangersProblem(dir: string, strangers: string[]): string {
  const count = strangers.length;
  return `${dir} holds ${count === 1 ? 'a path' : `${count} paths`} the demo did not write: ${nameSome(strangers)}. Nothing was removed; move ${count === 1 ? 'it' : 'them'} away or choose another folder`;
}

/** Removes what the scope lists, deepest first; refuses (removing nothing) when it found strangers. */
export async function removeDemoForReset(dir: string, scope: DemoResetScope): Promise<Result<void, string>> {
  if (scope.strangers.length > 0) return { ok: false, error: strangersProblem(dir, scope.strangers) };
  for (const entry of [...scope.entries].reverse()) {
    const absolute = path.join(dir, ...entry.relative.split('/'));
    // rmdir refuses a folder that is not empty: whatever appeared since the listing stays.
    if (entry.isDirectory) await fs.rmdir(absolute);
    else await fs.unlink(absolute);
  }
  return { ok: true, value: undefined };
}
