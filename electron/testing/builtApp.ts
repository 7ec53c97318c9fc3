// The repo's build as the tests run it: dist/cli.js for the agent and the built-binary tests, the
// renderer for the packaging test. Built once, before any test file runs (scripts/vitestGlobalSetup.ts),
// and only when a source is newer than the build: test files never build, because a build deletes the
// CLI's chunks before writing new ones and a test running beside it in another worker (an agent
// started over ssh) would load a chunk that is not there.

import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const builtCli = path.join(repo, 'dist', 'cli.js');

type Part = 'node' | 'renderer';

/** What each part is built from and the file whose age stands for the whole build. */
const PARTS: Record<Part, { sources: string[]; built: string }> = {
  node: { sources: ['electron', 'shared', 'scripts/build.mjs', 'scripts/buildPlugins.mjs'], built: builtCli },
  renderer: {
    sources: ['renderer', 'shared', 'vite.config.ts', 'scripts/build.mjs'],
    built: path.join(repo, 'dist', 'renderer', 'index.html'),
  },
};

function newestSource(file: string): number {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(file, { withFileTypes: true })) {
    if (entry.isFile() && (!/\.(ts|tsx|css|html)$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name))) continue;
    newest = Math.max(newest, newestSource(path.join(file, entry.name)));
  }
  return newest;
}

function isStale(part: Part): boolean {
  const { sources, built } = PARTS[part];
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  return sources.some((source) => newestSource(path.join(repo, source)) > builtAt);
}

/** Builds the parts whose sources are newer than their build; the ones up to date are left alone. */
export async function ensureBuilt(parts: readonly Part[] = ['node', 'renderer']): Promise<void> {
  const stale = parts.filter(isStale);
  if (stale.length > 0) await run(process.execPath, [path.join(repo, 'scripts', 'build.mjs'), ...stale], { cwd: repo });
}
