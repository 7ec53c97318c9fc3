// The content diff of one 10,000-line file, end to end in Debian's Chromium through the browser host:
// from the click on "Diff" in Compare to the first lines of the diff painted (the engine reads both
// sides, the API carries them, the renderer diffs and draws). Target: every sample < 200 ms. Beside
// it, for scale: the same two files through `git diff --no-index`, our `diff` command, and the model
// alone (shared/contentDiff) in Node. Generates its data in the bench's work dir; touches nothing else.

import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { diffTextLines, layoutDiff } from '../shared/contentDiff/textDiff';
import { makeSource, publish } from '../electron/demo/demoBundles';
import { writeFiles } from '../electron/demo/demoCases';
import { budgetRow, type Bench } from './bench';
import { formatMs, runOnce, spreadOf } from './measure';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startServeProcess, stopServeProcess } from './uiBench';

const LINES = 10_000;
const BUDGET_MS = 200;

/** A log-like text, and its edit: one line in 50 changed by a word, a block of 100 lines inserted, 20 removed. */
export function tenThousandLines(): { before: string; after: string } {
  const lines = Array.from(
    { length: LINES },
    (_, i) => `${String(i + 1).padStart(5, '0')} request GET /api/items/${i} took ${(i * 7) % 97} ms`,
  );
  const edited = lines.map((line, i) => (i % 50 === 25 ? line.replace('GET', 'POST') : line));
  edited.splice(4000, 20);
  edited.splice(6000, 0, ...Array.from({ length: 100 }, (_, i) => `inserted line ${i}`));
  return { before: `${lines.join('\n')}\n`, after: `${edited.join('\n')}\n` };
}

async function writeWorkspace(dir: string): Promise<{ workspaceFile: string; disk: string; next: string }> {
  const { before, after } = tenThousandLines();
  const published = makeSource('big-log', '2026-06-01T12:00:00Z', { 'big.txt': before });
  const publication = publish(published, { pipelineId: 'logs', destinationId: 'big-log', publishedAt: '2026-06-01T12:05:00Z' });
  await writeFiles(path.join(dir, 'destinations', 'big-log'), publication.outputs);
  await fs.writeFile(path.join(dir, 'destinations', 'big-log', '.distributor.json'), JSON.stringify(publication.state, null, 2));
  const newer = makeSource('big-log', '2026-07-01T12:00:00Z', { 'big.txt': after });
  await writeFiles(path.join(dir, 'sources', 'big-log'), newer.files);
  await fs.writeFile(path.join(dir, 'sources', 'big-log', 'manifest.json'), JSON.stringify(newer.manifest, null, 2));
  const workspaceFile = path.join(dir, 'distributor-inspector.json');
  const destinations = [{ path: 'destinations/big-log', pipeline_id: 'logs', destination_id: 'big-log', source: 'sources/big-log' }];
  await fs.writeFile(workspaceFile, JSON.stringify({ schema_version: 1, destinations }, null, 2));
  return {
    workspaceFile,
    disk: path.join(dir, 'destinations', 'big-log', 'big.txt'),
    next: path.join(dir, 'sources', 'big-log', 'big.txt'),
  };
}

// In the page: click "Diff big.txt", then wait for the first diff line and one more frame (painted).
const CLICK_TO_PAINT = `new Promise((resolve) => {
  const button = [...document.querySelectorAll('button')].find((candidate) => candidate.getAttribute('aria-label') === 'Diff big.txt');
  const started = performance.now();
  button.click();
  const check = () => {
    if (document.querySelector('[data-testid="content-diff-lines"] .diff-line')) requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0));
    else if (performance.now() - started > 10000) resolve(-1);
    else requestAnimationFrame(check);
  };
  check();
})`;

async function clickToPaint(page: Page): Promise<number> {
  const ms = (await page.evaluate(CLICK_TO_PAINT)) as number;
  if (ms < 0) throw new Error('the diff of big.txt did not appear within 10 s');
  await page.getByRole('button', { name: 'Close the diff' }).click();
  await page.locator('section.content-diff-panel').waitFor({ state: 'detached' });
  return ms;
}

export const contentDiffBench: Bench = {
  name: 'contentDiff',
  async run(context) {
    if (!existsSync(CHROMIUM_PATH)) throw new Error(`the content diff bench needs Chromium at ${CHROMIUM_PATH}`);
    const dir = path.join(context.workDir, 'content-diff');
    const { workspaceFile, disk, next } = await writeWorkspace(dir);
    const host = await startServeProcess(workspaceFile);
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const samples: number[] = [];
    try {
      const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
      await page.goto(host.url);
      await page.getByRole('option', { name: /^big-log/ }).click();
      await page.getByRole('tab', { name: /^Compare/ }).click();
      await page.getByRole('button', { name: 'Diff big.txt' }).waitFor();
      context.log(`contentDiff: ${LINES.toLocaleString('en-US')}-line file, click to painted diff in Chromium…`);
      await clickToPaint(page); // warm-up
      for (let i = 0; i < Math.max(5, context.runs); i++) samples.push(await clickToPaint(page));
    } finally {
      await browser.close();
      await stopServeProcess(host);
    }
    const { before, after } = tenThousandLines();
    const model: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      layoutDiff(diffTextLines(before, after));
      model.push(performance.now() - started);
    }
    const git = await runOnce(['git', 'diff', '--no-index', '--no-color', disk, next]);
    const ours = await runOnce(['node', context.cli, 'diff', path.dirname(disk), 'big.txt', path.dirname(next), '--publish']);
    const row = budgetRow(
      `Content diff: a ${LINES.toLocaleString('en-US')}-line file, click to painted diff (browser host, Chromium)`,
      samples,
      BUDGET_MS,
      [
        `the model alone in Node (jsdiff line diff, rows, hunks): median ${formatMs(spreadOf(model).median)}`,
        `for scale, as processes: git diff --no-index ${formatMs(git.wallMs)}; distributor-inspector diff --publish ${formatMs(ours.wallMs)} (startup included)`,
        '220 changed lines, 100 inserted, 20 removed; the diff is drawn as a virtual list',
      ],
      '<',
    );
    return [row];
  },
};
