// Reads a source bundle's manifest: from the bundle directory or from its manifest.json directly.
// Returns issues that name the file and the field; never throws on bad input.

import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { error, type Issue } from '../../shared/issues';
import type { Manifest } from '../../shared/manifestSchema';
import { parseManifest } from '../../shared/parseDocument';

export const MANIFEST_FILE_NAME = 'manifest.json';

export type SourceRead =
  | { ok: true; bundleDir: string; manifestFile: string; manifest: Manifest; issues: Issue[] }
  | { ok: false; manifestFile: string; issues: Issue[] };

function errnoCode(cause: unknown): string | undefined {
  return (cause as NodeJS.ErrnoException | undefined)?.code;
}

/** The manifest's bytes, or why they cannot be had. Non-blocking open: a FIFO must not hang the read. */
async function readManifestBytes(manifestFile: string): Promise<{ bytes: Buffer } | { why: string }> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(manifestFile, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (cause) {
    const code = errnoCode(cause);
    return {
      why: code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${code ?? String(cause)})`,
    };
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) return { why: 'is a directory' };
    if (!stat.isFile()) return { why: 'is not a regular file' };
    return { bytes: await handle.readFile() };
  } catch (cause) {
    return { why: `cannot be read (${errnoCode(cause) ?? String(cause)})` };
  } finally {
    await handle.close();
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
