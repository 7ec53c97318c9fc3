// The order that makes a replace durable without one disk flush per file (docs/replace.md): every
// staged output written, then all of them flushed together in one syncFiles, then the old state
// goes, then the renames, then the folder fsyncs, and the new state last, itself fsynced on write.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FsOpName, FsOps } from './fsOps';
import { nodeFsOps } from './fsOps';
import { applyPlan } from './applyPlan';
import { planReplace } from './planReplace';
import { countingFsOps } from '../testing/countingFsOps';
import { stateInvariantProblems, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';

let root: string;
beforeEach(async () => {
  root = await tempDirForTest('durability-');
});

interface Call {
  op: FsOpName;
  target: string;
  durable?: boolean;
  files?: readonly string[];
}

/** Records every mutation, as it starts, with whether a write asked to be fsynced on its own. */
function recordingFsOps(calls: Call[]): FsOps {
  const counted = countingFsOps(nodeFsOps, (_step, op, target) => {
    if (op !== 'writeFile' && op !== 'syncFiles') calls.push({ op, target });
  });
  return {
    ...counted,
    writeFile: async (file, bytes, options) => {
      calls.push({ op: 'writeFile', target: file, durable: options?.durable !== false });
      await counted.writeFile(file, bytes, options);
    },
    syncFiles: async (files) => {
      calls.push({ op: 'syncFiles', target: `${files.length} files`, files });
      await counted.syncFiles(files);
    },
  };
}

async function replacePlan(outputs: number) {
  const dest = path.join(root, 'dest');
  const oldManifest = await writeBundle(path.join(root, 'old'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
  await writeManagedDestination(dest, { manifest: oldManifest, outputs: { 'report.html': 'old report', 'pages/a.html': 'old a' } });
  const files = Object.fromEntries(Array.from({ length: outputs }, (_, i) => [`pages/${i % 3}/p${i}.txt`, `page ${i}\n`]));
  await writeBundle(path.join(root, 'source'), { 'report.md': '# Report', ...files }, { created: '2026-06-05T09:00:00Z' });
  const outcome = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode: 'replace' });
  if (!outcome.ok) throw new Error(outcome.error.message);
  return { dest, plan: outcome.value };
}

describe('the durability order of apply', () => {
  it('writes every staged output unflushed, flushes them all in one syncFiles before the old state goes, and fsyncs the state itself', async () => {
    const { dest, plan } = await replacePlan(40);
    const calls: Call[] = [];
    const result = await applyPlan(plan, { fs: recordingFsOps(calls) });
    expect(result.error).toBeUndefined();
    expect(await stateInvariantProblems(dest)).toEqual([]);

    // Targets are /proc/self/fd/<n>/<name> paths: the staged outputs are the writes named like an output.
    const outputNames = new Set(plan.writes.map((write) => path.posix.basename(write.path)));
    const staged = calls.filter((call) => call.op === 'writeFile' && outputNames.has(path.posix.basename(call.target)));
    expect(staged).toHaveLength(plan.writes.length);
    expect(staged.every((call) => call.durable === false)).toBe(true);

    const syncs = calls.filter((call) => call.op === 'syncFiles');
    expect(syncs).toHaveLength(1);
    // Exactly the staged files, each once.
    expect(new Set(syncs[0]?.files).size).toBe(plan.writes.length);
    expect([...(syncs[0]?.files ?? [])].sort()).toEqual(staged.map((call) => call.target).sort());

    const sync = calls.indexOf(syncs[0] as Call);
    const lastStaged = calls.indexOf(staged.at(-1) as Call);
    const stateUnlink = calls.findIndex((call) => call.op === 'unlink' && call.target.endsWith('/.distributor.json'));
    const firstRename = calls.findIndex((call) => call.op === 'rename');
    const stateTemp = calls.find((call) => call.op === 'writeFile' && call.target.endsWith('state.json.tmp'));
    expect(lastStaged).toBeLessThan(sync);
    expect(sync).toBeLessThan(stateUnlink);
    expect(stateUnlink).toBeLessThan(firstRename);
    expect(stateTemp?.durable).toBe(true);
    // Every folder an output landed in (and each made on the way) is fsynced after the renames, before the state.
    const stateRename = calls.findIndex((call) => call.op === 'rename' && call.target.endsWith('/.distributor.json'));
    const folderSyncs = calls.slice(firstRename, stateRename).filter((call) => call.op === 'fsyncDir');
    expect(folderSyncs.length).toBeGreaterThanOrEqual(5); // '', pages, pages/0, pages/1, pages/2
  });

  it('a failed flush leaves the destination as it was, staging folder gone', async () => {
    const { dest, plan } = await replacePlan(5);
    const before = await fs.readFile(path.join(dest, '.distributor.json'));
    const failing: FsOps = {
      ...nodeFsOps,
      syncFiles: async () => Promise.reject(Object.assign(new Error('EIO: injected flush failure'), { code: 'EIO' })),
    };
    const result = await applyPlan(plan, { fs: failing });
    expect(result.error?.details?.errno).toBe('EIO');
    expect(result.stagingLeft).toBe(false);
    expect(result.oldTouched).toBe(false);
    expect(await fs.readFile(path.join(dest, '.distributor.json'))).toEqual(before);
    expect((await fs.readdir(dest)).sort()).toEqual(['.distributor.json', 'pages', 'report.html']);
  });
});
