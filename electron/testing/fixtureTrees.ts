// Builds real destination trees for tests and the benchmark: files on disk, and a state file whose
// hashes and sizes are those of the bytes written. Only ever writes inside the directory it is given.

import { sha256Of } from '../engine/stateDigests';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { STATE_FILE_NAME } from '../../shared/stateSchema';

export { sha256Of };

export interface StateIdentity {
  pipelineId?: string;
  destinationId?: string;
  publishedAt?: string;
}

/** A schema-1 state that records exactly these files as copied source outputs. */
export function stateFor(files: Record<string, Buffer | string>, identity: StateIdentity = {}) {
  const records = Object.entries(files).map(([filePath, bytes]) => ({
    path: filePath,
    sha256: sha256Of(bytes),
    size: Buffer.byteLength(bytes),
  }));
  return {
    schema_version: 1,
    distributor_version: 'test',
    pipeline_id: identity.pipelineId ?? 'reports',
    destination_id: identity.destinationId ?? 'archive',
    published_at: identity.publishedAt ?? '2026-06-04T12:00:00Z',
    source: {
      manifest: {
        schema_version: 1,
        id: 'reports.example.2026-06-04',
        digest: sha256Of(records.map((record) => `${record.path}\0${record.sha256}`).join('\n')),
        created: '2026-06-04T11:55:00Z',
        files: records,
      },
    },
    outputs: records.map((record) => ({
      path: record.path,
      kind: 'source',
      source_path: record.path,
      sha256: record.sha256,
      size: record.size,
    })),
  };
}

/** Writes the files and their state file into `dir` (created when missing); returns the state JSON. */
export function writeManagedDestination(dir: string, files: Record<string, Buffer | string>, identity: StateIdentity = {}) {
  mkdirSync(dir, { recursive: true });
  for (const [filePath, bytes] of Object.entries(files)) {
    const target = path.join(dir, filePath);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, bytes);
  }
  const state = stateFor(files, identity);
  writeFileSync(path.join(dir, STATE_FILE_NAME), JSON.stringify(state, null, 2));
  return state;
}

/** A fresh directory under the system temp dir, and a function that removes it. */
export async function makeTempDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `${prefix}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
