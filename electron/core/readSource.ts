// Reads a source bundle's manifest: from the bundle directory or from its manifest.json directly.
// Returns issues that name the file and the field; never throws on bad input.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { error, type Issue } from '../../shared/issues';
import type { Manifest } from '../../shared/manifestSchema';
import { parseManifest } from '../../shared/parseDocument';

export const MANIFEST_FILE_NAME = 'manifest.json';

export type SourceRead =
  | { ok: true; bundleDir: string; manifestFile: string; manifest: Manifest; issues: Issue[] }
  | { ok: false; manifestFile: string; issues: Issue[] };

export async function readSource(source: string): Promise<SourceRead> {
  const resolved = path.resolve(source);
  const stat = await fs.stat(resolved).catch(() => undefined);
  const manifestFile = stat?.isDirectory() ? path.join(resolved, MANIFEST_FILE_NAME) : resolved;
  if (!stat) return { ok: false, manifestFile, issues: [error([], 'source_missing', `${resolved} does not exist`)] };
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(manifestFile);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${code ?? String(cause)})`;
    return { ok: false, manifestFile, issues: [error([], 'manifest_unreadable', `${manifestFile} ${why}`)] };
  }
  const parsed = parseManifest(bytes);
  if (!parsed.ok) return { ok: false, manifestFile, issues: parsed.issues };
  return { ok: true, bundleDir: path.dirname(manifestFile), manifestFile, manifest: parsed.manifest, issues: parsed.issues };
}
