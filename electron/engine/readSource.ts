// Reads a source bundle's manifest: from the bundle directory or from its manifest.json directly.
// Returns issues that name the file and the field; never throws on bad input.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { error, type Issue } from '../../shared/issues';
import type { Manifest } from '../../shared/manifestSchema';
import { parseManifest } from '../../shared/parseDocument';
import { readRegularFile } from './regularFile';

export const MANIFEST_FILE_NAME = 'manifest.json';
/** Far beyond any real manifest (a million files is ~150 MB), below what a JS string can hold. */
const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;

export type SourceRead =
  | { ok: true; bundleDir: string; manifestFile: string; manifest: Manifest; issues: Issue[] }
  | { ok: false; manifestFile: string; issues: Issue[] };

function errnoCode(cause: unknown): string | undefined {
  return (cause as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * The manifest's bytes, or why they cannot be had. Only a regular file is opened (regularFile.ts):
 * a FIFO or a device is named, never opened, so it cannot hang the read. A link to the manifest is
 * followed: the source is only ever read.
 */
async function readManifestBytes(manifestFile: string): Promise<{ bytes: Buffer } | { why: string }> {
  try {
    const read = await readRegularFile(manifestFile, { followLinks: true, maxBytes: MAX_MANIFEST_BYTES });
    if (read.kind === 'missing') return { why: 'does not exist' };
    if (read.kind === 'not_a_file') return { why: `is ${read.what}, not a manifest file` };
    if (read.kind === 'too_large') return { why: `is ${read.sizeBytes} bytes, more than a manifest may be (${MAX_MANIFEST_BYTES})` };
    return { bytes: read.bytes };
  } catch (cause) {
    return { why: `cannot be read (${errnoCode(cause) ?? String(cause)})` };
  }
}

export async function readSource(source: string): Promise<SourceRead> {
  const resolved = path.resolve(source);
  let stat;
  try {
    stat = await fs.stat(resolved);
  } catch (cause) {
    const code = errnoCode(cause);
    const why = code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : `cannot be read (${code ?? String(cause)})`;
    return { ok: false, manifestFile: resolved, issues: [error([], 'source_missing', `${resolved} ${why}`)] };
  }
  const manifestFile = stat.isDirectory() ? path.join(resolved, MANIFEST_FILE_NAME) : resolved;
  const read = await readManifestBytes(manifestFile);
  if ('why' in read) return { ok: false, manifestFile, issues: [error([], 'manifest_unreadable', `${manifestFile} ${read.why}`)] };
  const { bytes } = read;
  const parsed = parseManifest(bytes);
  if (!parsed.ok) return { ok: false, manifestFile, issues: parsed.issues };
  return { ok: true, bundleDir: path.dirname(manifestFile), manifestFile, manifest: parsed.manifest, issues: parsed.issues };
}
