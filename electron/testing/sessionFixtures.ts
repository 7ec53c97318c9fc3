// Small real workspaces on disk for the session, host and end-to-end tests: one destination of each
// status, a source bundle beside them, and optionally a large sparse output so a verify runs long
// enough to be cancelled. Writes only inside the folder it is given.

import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { makeSource, publish } from '../demo/demoBundles';
import { writeFiles } from '../demo/demoCases';
import { MANIFEST_FILE_NAME } from '../engine/readSource';

export interface FixtureWorkspace {
  /** The folder to open: each subfolder is a destination. */
  workspace: string;
  /** A source bundle for `site-a` (newer than what it holds: compare says replace). */
  source: string;
  remove: () => Promise<void>;
}

export interface FixtureOptions {
  /** Adds destination `big`: one output of this many bytes, sparse on disk, recorded with a wrong hash. */
  bigOutputBytes?: number;
}

export async function makeFixtureWorkspace(options: FixtureOptions = {}): Promise<FixtureWorkspace> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'inspector-ws-'));
  const workspace = path.join(root, 'workspace');
  const sourceDir = path.join(root, 'sources', 'site-a');

  const files = { 'index.md': '# Site A\n\nHello.\n', 'style.css': 'body { color: black; }\n' };
  const published = makeSource('site-a-source', '2026-06-01T12:00:00Z', files);
  const publication = publish(published, {
    pipelineId: 'docs',
    destinationId: 'site-a',
    publishedAt: '2026-06-01T12:05:00Z',
    baseUrl: 'https://docs.example.com/a',
  });
  const siteA = path.join(workspace, 'site-a');
  await writeFiles(siteA, publication.outputs);
  await fs.writeFile(path.join(siteA, STATE_FILE_NAME), `${JSON.stringify(publication.state, null, 2)}\n`);

  const newer = makeSource('site-a-source', '2026-07-01T12:00:00Z', { ...files, 'about.md': '# About\n' });
  await writeFiles(sourceDir, newer.files);
  await fs.writeFile(path.join(sourceDir, MANIFEST_FILE_NAME), `${JSON.stringify(newer.manifest, null, 2)}\n`);

  await fs.mkdir(path.join(workspace, 'empty-one'), { recursive: true });
  await fs.mkdir(path.join(workspace, 'loose'), { recursive: true });
  await fs.writeFile(path.join(workspace, 'loose', 'notes.txt'), 'not published by anyone\n');
  await fs.mkdir(path.join(workspace, 'broken'), { recursive: true });
  await fs.writeFile(path.join(workspace, 'broken', STATE_FILE_NAME), '{"schema_version": "1"}\n');

  if (options.bigOutputBytes !== undefined) {
    const big = path.join(workspace, 'big');
    await fs.mkdir(big, { recursive: true });
    const handle = await fs.open(path.join(big, 'big.bin'), 'w');
    await handle.truncate(options.bigOutputBytes);
    await handle.close();
    const state = {
      ...publication.state,
      destination_id: 'big',
      outputs: [
        { path: 'big.bin', kind: 'source', source_path: 'style.css', sha256: `sha256:${'0'.repeat(64)}`, size: options.bigOutputBytes },
      ],
    };
    await fs.writeFile(path.join(big, STATE_FILE_NAME), JSON.stringify(state));
  }
  return { workspace, source: sourceDir, remove: () => fs.rm(root, { recursive: true, force: true }) };
}
