// Test fixtures for replace: real source bundles and destinations in temp dirs, a whole-tree
// snapshot (types, modes, bytes, link targets) to prove that nothing changed, and the contract's
// crash invariant as a check. For tests only; never imported by the app.

import { promises as fs } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { Manifest } from '../../shared/manifestSchema';
import { parseState } from '../../shared/parseDocument';
import {
  STAGING_DIR_NAME,
  STAGING_FILES_DIR,
  STAGING_MARKER_KIND,
  STAGING_MARKER_NAME,
  stagingMarkerText,
  type StagingMarker,
} from '../../shared/staging';
import { STATE_FILE_NAME, type OutputRecord, type State } from '../../shared/stateSchema';

export const sha256 = (bytes: string | Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

export async function makeTempDir(prefix = 'inspector-test-'): Promise<string> {
  // realpath: on macOS the temp dir itself sits behind a link (/var → /private/var).
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
}

export async function removeTempDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
}

async function writeAt(root: string, relative: string, bytes: string | Uint8Array): Promise<void> {
  const full = path.join(root, ...relative.split('/'));
  await fs.mkdir(path.dirname(full), { recursive: true });
  await fs.writeFile(full, bytes);
}

export interface BundleOptions {
  id?: string;
  created?: string;
  digest?: string;
}

/** Writes files and a manifest.json that lists them truthfully. */
export async function writeBundle(dir: string, files: Record<string, string>, options: BundleOptions = {}): Promise<Manifest> {
  await fs.mkdir(dir, { recursive: true });
  const entries = Object.entries(files).map(([relative, text]) => ({
    path: relative,
    sha256: sha256(text),
    size: Buffer.byteLength(text),
  }));
  for (const [relative, text] of Object.entries(files)) await writeAt(dir, relative, text);
  const manifest: Manifest = {
    schema_version: 1,
    id: options.id ?? 'reports.example',
    digest: options.digest ?? sha256(JSON.stringify(entries)),
    created: options.created ?? '2026-06-04T11:55:00Z',
    files: entries,
  };
  await fs.writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return manifest;
}

export interface ManagedOptions {
  pipelineId?: string;
  destinationId?: string;
  manifest: Manifest;
  /** Output path → bytes; each becomes a `source` output of the manifest's first file. */
  outputs: Record<string, string>;
  extras?: Record<string, string>;
}

/** A managed destination whose state truthfully describes its outputs. */
export async function writeManagedDestination(dest: string, options: ManagedOptions): Promise<State> {
  await fs.mkdir(dest, { recursive: true });
  const sourcePath = options.manifest.files[0]?.path ?? 'report.md';
  const outputs: OutputRecord[] = Object.entries(options.outputs).map(([relative, text]) => ({
    path: relative,
    kind: 'source',
    source_path: sourcePath,
    sha256: sha256(text),
    size: Buffer.byteLength(text),
  }));
  for (const [relative, text] of Object.entries(options.outputs)) await writeAt(dest, relative, text);
  for (const [relative, text] of Object.entries(options.extras ?? {})) await writeAt(dest, relative, text);
  const state: State = {
    schema_version: 1,
    distributor_version: 'test',
    pipeline_id: options.pipelineId ?? 'reports',
    destination_id: options.destinationId ?? 'archive',
    published_at: '2026-06-04T12:00:00Z',
    source: { manifest: options.manifest },
    outputs,
  };
  await fs.writeFile(path.join(dest, STATE_FILE_NAME), JSON.stringify(state, null, 2));
  return state;
}

/**
 * Every entry under root with its type, mode, size, content hash (files) and link target (links),
 * one line each, sorted. Two equal snapshots mean nothing under root changed that a reader could see.
 */
export async function snapshotTree(root: string): Promise<string> {
  const lines: string[] = [];
  async function visit(full: string, relative: string): Promise<void> {
    const stat = await fs.lstat(full);
    const mode = (stat.mode & 0o7777).toString(8);
    if (stat.isSymbolicLink()) lines.push(`${relative} link ${mode} -> ${await fs.readlink(full)}`);
    else if (stat.isFile()) lines.push(`${relative} file ${mode} ${stat.size} ${sha256(await fs.readFile(full))}`);
    else if (stat.isDirectory()) {
      lines.push(`${relative} dir ${mode}`);
      for (const name of (await fs.readdir(full)).sort())
        await visit(path.join(full, name), relative === '' ? name : `${relative}/${name}`);
    } else lines.push(`${relative} other ${mode}`);
  }
  await visit(root, '');
  return lines.join('\n');
}

/** Problems with the contract's invariant: a state on disk is valid and its outputs are there, byte for byte. */
export async function stateInvariantProblems(dest: string): Promise<string[]> {
  const bytes = await fs.readFile(path.join(dest, STATE_FILE_NAME)).catch(() => undefined);
  if (bytes === undefined) return [];
  const parsed = parseState(bytes);
  if (parsed.status !== 'managed') return [`state is invalid: ${parsed.issues.map((issue) => issue.message).join('; ')}`];
  const problems: string[] = [];
  for (const output of parsed.state.outputs) {
    const full = path.join(dest, ...output.path.split('/'));
    const stat = await fs.lstat(full).catch(() => undefined);
    if (!stat?.isFile()) {
      problems.push(`${output.path} is ${stat ? 'not a file' : 'missing'}`);
      continue;
    }
    const content = await fs.readFile(full);
    if (content.length !== output.size || sha256(content) !== output.sha256)
      problems.push(`${output.path} does not have the recorded bytes`);
  }
  return problems;
}

/** A staging folder as an interrupted apply leaves it: the marker, and some staged files under files/. */
export async function writeInterruptedStaging(
  dest: string,
  staged: Record<string, string> = { 'half.html': 'half' },
  name = STAGING_DIR_NAME,
): Promise<string> {
  const dir = path.join(dest, name);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const marker: StagingMarker = {
    kind: STAGING_MARKER_KIND,
    version: 1,
    created: '2026-06-05T09:30:00Z',
    mode: 'replace',
    source: { id: 'reports.example', digest: sha256('test') },
    plannedAt: '2026-06-05T09:29:00Z',
    pipeline_id: 'reports',
    destination_id: 'archive',
  };
  await fs.writeFile(path.join(dir, STAGING_MARKER_NAME), stagingMarkerText(marker));
  for (const [relative, text] of Object.entries(staged)) await writeAt(path.join(dir, STAGING_FILES_DIR), relative, text);
  return dir;
}
