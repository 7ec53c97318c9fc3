// The command line's scan reads in two workers (each handed its next batch before it answers) or in
// its own thread, as the cores allow: the document it prints must not depend on which.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { HashPool, loadWorkspace, runInThread, type LoadedWorkspace } from '../service/workspaceScan';
import { writeInterruptedStaging } from '../testing/fixtures';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import type { CliIo } from './command';
import { jsonDocument } from './renderScan';
import { scanWithPool } from './scanCommand';
import { documentPieces } from './scanJsonText';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('scan-paths-test')));
afterEach(async () => remove());

const kinds: ((at: string, i: number) => unknown)[] = [
  (at, i) => writeManagedDestination(at, { 'a.html': `page ${i}`, 'b/c.html': 'c' }),
  (at) => writeManagedDestination(at, { 'a.html': 'x' }, { publishedAt: 'not a time' }),
  (at) => {
    mkdirSync(at);
    writeFileSync(path.join(at, STATE_FILE_NAME), '{ "schema_version": 1, ');
  },
  (at) => mkdirSync(at), // no state: empty
  (at) => {
    mkdirSync(at);
    writeFileSync(path.join(at, 'left.txt'), 'not published'); // no state: unmanaged
  },
  // A managed state beside a marked staging folder: a replace that stopped half way.
  (at) => (writeManagedDestination(at, { 'a.html': 'a' }), writeInterruptedStaging(at)),
];

/** Enough destinations of every kind that two workers each get several batches, one waiting behind another. */
async function mixedWorkspace(count: number): Promise<LoadedWorkspace> {
  for (let i = 0; i < count; i++) await kinds[i % kinds.length]!(path.join(dir, `d${String(i).padStart(4, '0')}`), i);
  const load = await loadWorkspace(dir);
  if (!load.ok) throw new Error(load.issues.map((issue) => issue.message).join('; '));
  return load.workspace;
}

const io: CliIo = { stdout: () => {}, stderr: () => {}, isTerminal: false, env: {}, cwd: '/' };

async function documentWith(workspace: LoadedWorkspace, pool: HashPool): Promise<{ text: string; workers: number[] }> {
  try {
    const outcome = await scanWithPool(workspace, [], { verify: false, io, json: true, pool });
    // The document as the command prints it, and as the whole document would print at once.
    const text = documentPieces(outcome, outcome.rendered).join('');
    expect(text).toBe(`${JSON.stringify(jsonDocument(outcome), null, 2)}\n`);
    return { text, workers: pool.threadIds };
  } finally {
    await pool.close();
  }
}

describe('the scan --json document', () => {
  it('is byte for byte the same read in two pipelined workers as in this thread', async () => {
    const workspace = await mixedWorkspace(600);
    const inWorkers = await documentWith(workspace, new HashPool({ size: 2 }));
    const here = await documentWith(workspace, new HashPool({ size: 2, runHere: runInThread, coresBusy: () => true }));
    expect(inWorkers.workers).toHaveLength(2);
    expect(here.workers).toEqual([]);
    expect(inWorkers.text).toBe(here.text);
    const counts = JSON.parse(here.text).counts;
    // An interrupted replace keeps its state's status, with an error beside it.
    expect(counts).toEqual({ total: 600, managed: 200, unmanaged: 100, empty: 100, invalid: 200 });
    const interrupted = JSON.parse(here.text).destinations[5];
    expect(interrupted.issues.map((issue: { code: string }) => issue.code)).toContain('interrupted');
  });
});
