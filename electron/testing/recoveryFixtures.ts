// Fixtures for repair and discard staging: a destination published for real by this app's own replace
// (so its generated outputs can be regenerated and proven), then drifted by hand, plus an outside
// folder of canaries that nothing may touch. For tests only; never imported by the app.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ReplacePlan } from '../../shared/plan';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { WORKSPACE_FILE_NAME } from '../../shared/workspaceSchema';
import { inspectDestination } from '../engine/inspectDestination';
import { applyPlan } from '../replace/applyPlan';
import { planDiscardStaging } from '../replace/planDiscardStaging';
import { planRepair } from '../replace/planRepair';
import { planReplace } from '../replace/planReplace';
import { snapshotTree, writeBundle } from './fixtures';

export const PUBLISHED_FILES = {
  'report.md': '# Report\n\nThe figures.\n',
  'pages/a.md': '# Page A\n',
  'pages/deep/b.txt': 'b text\n',
  'data.csv': 'a,b\n1,2\n',
};

export interface Published {
  root: string;
  dest: string;
  source: string;
  outside: string;
}

/** A source bundle published into `<root>/dest` by planReplace + applyPlan, and `<root>/outside/canary.txt`. */
export async function publishedDestination(root: string): Promise<Published> {
  const dest = path.join(root, 'dest');
  const source = path.join(root, 'source');
  const outside = path.join(root, 'outside');
  await writeBundle(source, PUBLISHED_FILES, { created: '2026-06-05T09:00:00Z' });
  await fs.mkdir(dest, { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'canary.txt'), 'canary');
  const plan = await planReplace({
    destinationPath: dest,
    sourcePath: source,
    mode: 'replace',
    configured: { pipelineId: 'reports', destinationId: 'archive' },
  });
  if (!plan.ok) throw new Error(`publish refused: ${plan.error.message}`);
  const applied = await applyPlan(plan.value);
  if (!applied.ok) throw new Error(`publish failed: ${applied.error?.message}`);
  return { root, dest, source, outside };
}

/**
 * A published destination listed in a workspace file with its source configured (`dest`, id
 * `archive`), beside a second destination without one (`plain`): what the Session, the CLI
 * and the e2e specs repair from. Returns the workspace file's path.
 */
export async function recoveryWorkspace(root: string): Promise<Published & { workspaceFile: string }> {
  const published = await publishedDestination(root);
  await fs.mkdir(path.join(root, 'plain'));
  const workspaceFile = path.join(root, WORKSPACE_FILE_NAME);
  const workspace = {
    schema_version: 1,
    destinations: [{ path: 'dest', pipeline_id: 'reports', destination_id: 'archive', source: 'source' }, { path: 'plain' }],
  };
  await fs.writeFile(workspaceFile, `${JSON.stringify(workspace, null, 2)}\n`);
  return { ...published, workspaceFile };
}

/** Drifts a published destination the usual ways: an edit, a truncation, a deletion, and an extra file. */
export async function driftByHand(dest: string): Promise<void> {
  await fs.writeFile(path.join(dest, 'report.html'), '<p>edited by hand</p>');
  await fs.writeFile(path.join(dest, 'data.csv'), 'a,b\n1,3\n');
  await fs.rm(path.join(dest, 'pages', 'deep'), { recursive: true });
  await fs.writeFile(path.join(dest, 'notes.txt'), 'operator notes');
}

export async function repairPlanOf(dest: string, source: string): Promise<ReplacePlan> {
  const outcome = await planRepair({ destinationPath: dest, sourcePath: source });
  if (!outcome.ok) throw new Error(`repair refused: ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.value;
}

export async function discardPlanOf(dest: string): Promise<ReplacePlan> {
  const outcome = await planDiscardStaging({ destinationPath: dest });
  if (!outcome.ok) throw new Error(`discard refused: ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.value;
}

/** Whether inspect reports `dest` as holding an interrupted replace. */
export async function reportsInterrupted(dest: string): Promise<boolean> {
  return (await inspectDestination(dest)).issues.some((issue) => issue.code === 'interrupted');
}

/** The destination's snapshot without the staging folder: what discarding must leave exactly as it was. */
export async function snapshotWithoutStaging(dest: string): Promise<string> {
  return (await snapshotTree(dest))
    .split('\n')
    .filter((line) => !line.startsWith(STAGING_DIR_NAME))
    .join('\n');
}
