// The folder compare of one destination against a source bundle: what a publish of the source would
// write (publish.ts: every source file verified against its manifest, markdown rendered), verified
// against the folder as it stands (engine/verify.ts hashes each path, lists the rest), each path
// then matches, differs, is missing or is extra. Read-only; never follows a symbolic link (a link is
// reported with its target, read with readlink), never leaves the folder, never enters a mount point.

import { readlinkSync } from 'node:fs';
import path from 'node:path';
import { adoptBlockers, folderCounts, type FolderCompare, type FolderEntry } from '../../shared/folderCompare';
import type { PlanRefusal } from '../../shared/plan';
import type { Result } from '../../shared/result';
import type { State } from '../../shared/stateSchema';
import type { FileKind, OutputVerification } from '../../shared/verifyReport';
import type { HashPool } from '../engine/hashPool';
import { inspectDestination, type DestinationInspection } from '../engine/inspectDestination';
import { readSource } from '../engine/readSource';
import { verifyDestination } from '../engine/verify';
import { joinRelative, lstatEntry, lstatEntrySync } from './fingerprint';
import { refuse, sourceRefusal } from './planRefusals';
import { preparePublication } from './publish';

export interface CompareFolderInput {
  destinationPath: string;
  sourcePath: string;
  /** The ids the state of an adopt records; a compare alone needs none (placeholders stand in). */
  configured?: { pipelineId?: string; destinationId?: string };
  baseUrl?: string;
  primary?: string;
  pool?: HashPool;
  publishedAt?: string;
}

/** The compare, and what planning an adopt builds on: the state a publish would write, the folder as inspected. */
export interface FolderComparison {
  compare: FolderCompare;
  state: State;
  bundleRealPath: string;
  inspection: DestinationInspection;
}

const PLACEHOLDER_ID = 'folder-compare';

function entryOfOutput(verified: OutputVerification, state: State, index: number): FolderEntry {
  const record = state.outputs[index]!;
  const expected = { sha256: record.sha256, size: record.size, source_path: record.source_path, generated: record.kind === 'generated' };
  const base = { path: verified.path, expected };
  switch (verified.status) {
    case 'ok':
      return { ...base, status: 'matches', kind: 'file' };
    case 'missing':
      return { ...base, status: 'missing' };
    case 'not_a_file': {
      const linkTarget = verified.actual?.linkTarget;
      return {
        ...base,
        status: 'differs',
        kind: verified.actual?.kind ?? 'other',
        reason: 'not_a_file',
        ...(linkTarget !== undefined ? { actual: { linkTarget } } : {}),
      };
    }
    default:
      return {
        ...base,
        status: 'differs',
        kind: 'file',
        reason: verified.error !== undefined ? 'unreadable' : verified.status,
        ...(verified.actual ? { actual: { size: verified.actual.size, sha256: verified.actual.sha256 } } : {}),
      };
  }
}

/** An extra entry as lstat sees it: a link is named with its target, never followed. */
function entryOfExtra(root: string, listed: string): FolderEntry {
  const relative = listed.endsWith('/') ? listed.slice(0, -1) : listed;
  const seen = lstatEntrySync(root, relative);
  const kind: FileKind = seen.type === 'missing' ? 'other' : seen.type;
  const entry: FolderEntry = { path: listed, status: 'extra', kind };
  if (seen.type === 'file') entry.actual = { size: seen.size };
  if (seen.type === 'symlink') {
    try {
      entry.actual = { linkTarget: readlinkSync(joinRelative(root, relative)) };
    } catch {
      // Gone since it was listed: still reported as the link it was.
    }
  }
  return entry;
}

export async function compareFolderDetailed(input: CompareFolderInput): Promise<Result<FolderComparison, PlanRefusal>> {
  const dest = path.resolve(input.destinationPath);
  const source = await readSource(input.sourcePath);
  if (!source.ok) return sourceRefusal(source.manifestFile, source.issues);
  const destEntry = await lstatEntry(dest, '');
  if (destEntry.type === 'symlink')
    return refuse('unsafe_path', `${dest} is a symbolic link; a folder compare never follows one`, { path: dest });
  if (destEntry.type !== 'directory' && destEntry.type !== 'missing')
    return refuse('not_a_folder', `${dest} is not a folder`, { path: dest });
  const publication = await preparePublication({
    bundleRealPath: source.bundleDir,
    manifest: source.manifest,
    pipelineId: input.configured?.pipelineId ?? PLACEHOLDER_ID,
    destinationId: input.configured?.destinationId ?? PLACEHOLDER_ID,
    publishedAt: input.publishedAt ?? source.manifest.created,
    baseUrl: input.baseUrl,
    primary: input.primary,
  });
  if (!publication.ok) return publication;
  const state = publication.value.state;
  const inspection = await inspectDestination(dest);
  const report = await verifyDestination(dest, state, { pool: input.pool });
  const entries = [
    ...report.outputs.map((verified, index) => entryOfOutput(verified, state, index)),
    ...report.extra.map((listed) => entryOfExtra(dest, listed)),
  ];
  const compare: FolderCompare = {
    destinationPath: dest,
    destinationStatus: inspection.status,
    source: {
      path: source.bundleDir,
      id: source.manifest.id,
      digest: source.manifest.digest,
      created: source.manifest.created,
    },
    entries,
    counts: folderCounts(entries),
    adoptable: false,
    blockers: [],
  };
  compare.blockers = adoptBlockers(compare);
  compare.adoptable = compare.blockers.length === 0;
  return { ok: true, value: { compare, state, bundleRealPath: source.bundleDir, inspection } };
}

/** The folder compare alone: what the CLI and the app show. */
export async function compareFolder(input: CompareFolderInput): Promise<Result<FolderCompare, PlanRefusal>> {
  try {
    const detailed = await compareFolderDetailed(input);
    return detailed.ok ? { ok: true, value: detailed.value.compare } : detailed;
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return refuse(
      'io_error',
      `the folder compare failed while reading the disk: ${(cause as Error).message}`,
      code ? { errno: code } : undefined,
    );
  }
}
