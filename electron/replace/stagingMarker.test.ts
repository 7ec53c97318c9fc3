// `.distributor-staging` is not reserved by the contract: a source may publish files under it, and a
// valid intact state recording them is not an interrupted replace. Only a folder with apply's marker
// is one, as inspect and the scan reader both say, and apply stages under a name no output uses.

import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { STAGING_DIR_NAME, STAGING_MARKER_NAME } from '../../shared/staging';
import { inspectDestination } from '../engine/inspectDestination';
import { inspectDestinationSync } from '../engine/scanReader';
import { verifyDestination } from '../engine/verify';
import { applyPlan } from './applyPlan';
import { planReplace } from './planReplace';
import { stateInvariantProblems, writeBundle, writeInterruptedStaging } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';

let root: string;
beforeEach(async () => {
  root = await tempDirForTest('staging-');
});

const interruptedCodes = (issues: { code: string }[]) => issues.filter((issue) => issue.code === 'interrupted');

describe('a source with files under .distributor-staging/', () => {
  it('publishes, staging under another name, and the result is managed, intact and not interrupted', async () => {
    const dest = path.join(root, 'dest');
    await writeBundle(path.join(root, 'source'), {
      'index.md': '# Home',
      '.distributor-staging/notes.txt': 'a file the contract allows',
      '.distributor-staging/staging.json': '{"kind":"distributor-inspector-staging"}',
    });
    const outcome = await planReplace({
      destinationPath: dest,
      sourcePath: path.join(root, 'source'),
      mode: 'replace',
      configured: { pipelineId: 'p', destinationId: 'd' },
    });
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(outcome.value.stagingName).not.toBe(STAGING_DIR_NAME);
    const result = await applyPlan(outcome.value);
    expect(result.error).toBeUndefined();
    expect(result.stagingLeft).toBe(false);
    expect(await stateInvariantProblems(dest)).toEqual([]);

    const inspection = await inspectDestination(dest);
    expect(inspection.status).toBe('managed');
    expect(interruptedCodes(inspection.issues)).toEqual([]);
    expect(interruptedCodes(inspectDestinationSync(dest).inspection.issues)).toEqual([]);
    const verify = await verifyDestination(dest, inspection.state!);
    expect(verify.status).toBe('intact');
    expect(verify.outputs.map((output) => output.path).sort()).toContain('.distributor-staging/notes.txt');
  });

  it('a normal replace of it works too (no "interrupted" refusal), and the old staging-named outputs are replaced', async () => {
    const dest = path.join(root, 'dest');
    const files = { 'index.md': '# Home', '.distributor-staging/notes.txt': 'v1' };
    await writeBundle(path.join(root, 'v1'), files, { created: '2026-06-04T11:55:00Z' });
    const first = await planReplace({
      destinationPath: dest,
      sourcePath: path.join(root, 'v1'),
      mode: 'replace',
      configured: { pipelineId: 'p', destinationId: 'd' },
    });
    if (!first.ok) throw new Error(first.error.message);
    expect((await applyPlan(first.value)).ok).toBe(true);
    await writeBundle(path.join(root, 'v2'), { ...files, '.distributor-staging/notes.txt': 'v2' }, { created: '2026-06-05T09:00:00Z' });
    const second = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'v2'), mode: 'replace' });
    if (!second.ok) throw new Error(second.error.message);
    expect((await applyPlan(second.value)).ok).toBe(true);
    expect(await fs.readFile(path.join(dest, '.distributor-staging', 'notes.txt'), 'utf8')).toBe('v2');
    expect(interruptedCodes((await inspectDestination(dest)).issues)).toEqual([]);
  });
});

describe('what counts as an interrupted replace', () => {
  it('a folder named .distributor-staging without the marker is an extra folder, not an interrupted replace', async () => {
    const dest = path.join(root, 'dest');
    await fs.mkdir(path.join(dest, STAGING_DIR_NAME), { recursive: true });
    await fs.writeFile(path.join(dest, STAGING_DIR_NAME, 'x.txt'), 'x');
    expect(interruptedCodes((await inspectDestination(dest)).issues)).toEqual([]);
    expect(interruptedCodes(inspectDestinationSync(dest).inspection.issues)).toEqual([]);
  });

  it('a folder with the marker is one, in inspect and in the scan reader alike, also under a hex name', async () => {
    const dest = path.join(root, 'dest');
    await fs.mkdir(dest);
    await writeInterruptedStaging(dest, { 'a.html': 'a' }, `${STAGING_DIR_NAME}-0badcafe`);
    const [fromInspect] = interruptedCodes((await inspectDestination(dest)).issues) as { code: string; path: unknown[] }[];
    const [fromScan] = interruptedCodes(inspectDestinationSync(dest).inspection.issues) as { code: string; path: unknown[] }[];
    expect(fromInspect?.path).toEqual([`${STAGING_DIR_NAME}-0badcafe`]);
    expect(fromScan).toEqual(fromInspect);
  });

  it('a marker that is a FIFO, a link or a folder is not read and does not count', async () => {
    const dest = path.join(root, 'dest');
    await fs.mkdir(path.join(dest, STAGING_DIR_NAME), { recursive: true });
    const marker = await writeInterruptedStaging(path.join(root, 'elsewhere'));
    await fs.symlink(path.join(marker, STAGING_MARKER_NAME), path.join(dest, STAGING_DIR_NAME, STAGING_MARKER_NAME));
    expect(interruptedCodes((await inspectDestination(dest)).issues)).toEqual([]);
    await fs.rm(path.join(dest, STAGING_DIR_NAME, STAGING_MARKER_NAME));
    await fs.mkdir(path.join(dest, STAGING_DIR_NAME, STAGING_MARKER_NAME));
    expect(interruptedCodes((await inspectDestination(dest)).issues)).toEqual([]);
    if (process.platform !== 'win32') {
      await fs.rmdir(path.join(dest, STAGING_DIR_NAME, STAGING_MARKER_NAME));
      execFileSync('mkfifo', [path.join(dest, STAGING_DIR_NAME, STAGING_MARKER_NAME)]);
      expect(interruptedCodes(inspectDestinationSync(dest).inspection.issues)).toEqual([]);
    }
  });

  it('a killed apply leaves a marked folder, which inspect reports and a forced replace clears', async () => {
    const dest = path.join(root, 'dest');
    await writeBundle(path.join(root, 'source'), { 'index.md': '# Home' });
    const outcome = await planReplace({
      destinationPath: dest,
      sourcePath: path.join(root, 'source'),
      mode: 'replace',
      configured: { pipelineId: 'p', destinationId: 'd' },
    });
    if (!outcome.ok) throw new Error(outcome.error.message);
    // Simulate the kill after staging: what apply writes first is the marker (applyCrash.test.ts kills for real).
    await fs.mkdir(dest);
    await writeInterruptedStaging(dest);
    const inspection = await inspectDestination(dest);
    expect(inspection.issues.find((issue) => issue.code === 'interrupted')?.message).toContain(STAGING_DIR_NAME);
    const force = await planReplace({
      destinationPath: dest,
      sourcePath: path.join(root, 'source'),
      mode: 'force',
      configured: { pipelineId: 'p', destinationId: 'd' },
    });
    if (!force.ok) throw new Error(force.error.message);
    expect((await applyPlan(force.value)).ok).toBe(true);
    expect(interruptedCodes((await inspectDestination(dest)).issues)).toEqual([]);
    expect((await fs.readdir(dest)).sort()).toEqual(['.distributor.json', 'index.html']);
  });
});
