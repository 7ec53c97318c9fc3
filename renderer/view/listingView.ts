// What a destination holds, in words, from the engine's listing (electron/engine/listing.ts: lstat
// only, breadth-first, capped): the first entries and the counts by kind. Pure: no DOM. Never says a
// count is exact when the engine's listing stopped at its cap.

import type { ResponseOf } from '../../shared/api';
import { groupDigits } from '../../shared/issueCap';
import { formatBytes } from './format';

type Listing = ResponseOf<'inspectDestination'>['listing'];
type ListingEntry = Listing['entries'][number];

export interface ListingSummary {
  /** The first entries, top of the tree first (a folder's own entries before what is deeper). */
  first: ListingEntry[];
  /** Entries the listing holds, and whether more exist than it holds. */
  total: number;
  truncated: boolean;
  files: number;
  directories: number;
  symlinks: number;
  other: number;
  fileBytes: number;
}

/** Shallow entries first, then by path: what an operator sees first when opening the folder. */
function byDepthThenPath(a: ListingEntry, b: ListingEntry): number {
  const depth = a.path.split('/').length - b.path.split('/').length;
  if (depth !== 0) return depth;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

export function summarizeListing(listing: Listing, firstCount: number): ListingSummary {
  const summary: ListingSummary = {
    first: [...listing.entries].sort(byDepthThenPath).slice(0, firstCount),
    total: listing.entries.length,
    truncated: listing.truncated,
    files: 0,
    directories: 0,
    symlinks: 0,
    other: 0,
    fileBytes: 0,
  };
  for (const entry of listing.entries) {
    if (entry.type === 'file') {
      summary.files += 1;
      summary.fileBytes += entry.sizeBytes;
    } else if (entry.type === 'directory') summary.directories += 1;
    else if (entry.type === 'symlink') summary.symlinks += 1;
    else summary.other += 1;
  }
  return summary;
}

const plural = (count: number, one: string, many: string) => `${groupDigits(count)} ${count === 1 ? one : many}`;

/** "7 entries: 5 files (1.2 kB), 1 folder, 1 symbolic link"; "at least 5,000 entries…" when the listing stopped at its cap. */
export function listingSentence(summary: ListingSummary): string {
  const parts: string[] = [];
  if (summary.files > 0) parts.push(`${plural(summary.files, 'file', 'files')} (${formatBytes(summary.fileBytes)})`);
  if (summary.directories > 0) parts.push(plural(summary.directories, 'folder', 'folders'));
  if (summary.symlinks > 0) parts.push(plural(summary.symlinks, 'symbolic link', 'symbolic links'));
  if (summary.other > 0) parts.push(plural(summary.other, 'other entry', 'other entries'));
  const count = summary.truncated
    ? `At least ${plural(summary.total, 'entry', 'entries')} (the listing stops there)`
    : plural(summary.total, 'entry', 'entries').replace(/^./, (first) => first.toUpperCase());
  return parts.length > 0 ? `${count}: ${parts.join(', ')}${summary.truncated ? ' among those listed' : ''}.` : `${count}.`;
}

/** What an entry is, in words; a symbolic link with its target as the engine read it (readlink, never followed). */
export function entryKind(entry: ListingEntry): string {
  if (entry.type === 'symlink')
    return entry.linkTarget !== undefined ? `symbolic link to ${entry.linkTarget} (not followed)` : 'symbolic link (not followed)';
  if (entry.type === 'directory') return 'folder';
  if (entry.type === 'file') return 'file';
  return 'other (not a file or folder)';
}
