// The command line's scan reads in two workers (each handed its next batch before it answers) or in
// its own thread, as the cores allow: the document it prints must not depend on which. With --json,
// each row's fields are printed where it was read (a worker, or this thread for a verify of one
// batch), with --verify its report among them: the same bytes as the document printed whole here.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { NO_SOURCE_SYNC } from '../../shared/syncNoSource';
import { HashPool, loadWorkspace, runInThread, scanWorkspace, type LoadedWorkspace } from '../service/workspaceScan';
import { writeInterruptedStaging } from '../testing/fixtures';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import type { CliIo } from './command';
import { humanText, jsonDocument, type ScanOutcome } from './renderScan';
import { makeStyle } from './style';
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
  // Drifted: an output edited, another gone, a file nobody published.
  (at, i) => {
    writeManagedDestination(at, { 'a.html': `page ${i}`, 'b/c.html': 'c', 'd.html': 'd' });
    writeFileSync(path.join(at, 'a.html'), 'edited');
    rmSync(path.join(at, 'd.html'));
    writeFileSync(path.join(at, 'extra "quoted" \\ é.txt'), 'x');
  },
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
    expect(counts).toEqual({ total: 600, managed: 256, unmanaged: 86, empty: 86, invalid: 172 });
    const interrupted = JSON.parse(here.text).destinations[5];
    expect(interrupted.issues.map((issue: { code: string }) => issue.code)).toContain('interrupted');
  });
});

/**
 * The --verify document and table as the command prints them, and both printed here from every
 * row's full report, as read by a plain scanWorkspace: the command's workers send no intact report
 * to the table and print the document's rows themselves.
 */
async function verifiedDocuments(workspace: LoadedWorkspace, pool: () => HashPool) {
  const withPool = async <T>(read: (used: HashPool) => Promise<T>) => {
    const used = pool();
    try {
      return { read: await read(used), workers: used.threadIds.length };
    } finally {
      await used.close();
    }
  };
  const asJson = await withPool((used) => scanWithPool(workspace, [], { verify: true, io, json: true, pool: used }));
  const asTable = await withPool((used) => scanWithPool(workspace, [], { verify: true, io, json: false, pool: used }));
  const full = await withPool((used) => scanWorkspace(workspace, { pool: used, verify: true, retain: 'summary', digests: false }));
  const rows = full.read.rows.map((row) => ({ ...row, sync: NO_SOURCE_SYNC }));
  const reference: ScanOutcome = {
    workspace,
    warnings: [],
    rows,
    verify: rows.map((row) => row.verify),
    verifiedAt: rows.map((row) => (row.verify ? new Date().toISOString() : undefined)),
  };
  return {
    text: documentPieces(asJson.read, asJson.read.rendered).join(''),
    table: humanText(asTable.read, makeStyle(false, {})),
    workers: [asJson.workers, asTable.workers],
    whole: `${JSON.stringify(jsonDocument(reference), null, 2)}\n`,
    wholeTable: humanText(reference, makeStyle(false, {})),
    tableReports: asTable.read.verify!.filter((report) => report !== undefined).map((report) => report.status),
  };
}

describe('the scan --verify document and table', () => {
  // One verify time for both runs: the command stamps each report with the time its scan began.
  beforeEach(() => void vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-06T21:00:00.000Z') }));
  afterEach(() => void vi.useRealTimers());

  it('is byte for byte the document printed whole from the reports, its rows rendered in two workers', async () => {
    const workspace = await mixedWorkspace(140);
    const read = await verifiedDocuments(workspace, () => new HashPool({ size: 2 }));
    expect(read.workers).toEqual([2, 2]);
    expect(read.text).toBe(read.whole);
    expect(read.table).toBe(read.wholeTable);
    // The table kept only the reports it lists.
    expect(read.tableReports).toEqual(new Array(20).fill('drifted'));
    const document = JSON.parse(read.text);
    expect(document.counts).toMatchObject({ total: 140, intact: 40, drifted: 20 });
    const drifted = document.destinations[6];
    expect(drifted.verify.status).toBe('drifted');
    expect(drifted.verify.extra).toEqual(['extra "quoted" \\ é.txt']);
    expect(drifted.verified_at).toBe('2026-12-06T21:00:00.000Z');
    expect(read.table).toContain('verified 60: 40 intact, 20 drifted');
  });

  it('is the same when a verify of one batch is read in this thread', async () => {
    const workspace = await mixedWorkspace(7);
    const read = await verifiedDocuments(workspace, () => new HashPool({ size: 2, runHere: runInThread }));
    expect(read.workers).toEqual([0, 0]);
    expect(read.text).toBe(read.whole);
    expect(read.table).toBe(read.wholeTable);
    expect(JSON.parse(read.text).destinations[6].verify.status).toBe('drifted');
  });
});
