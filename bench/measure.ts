// Runs a command as a child process and measures it: wall time, CPU time and peak memory (RSS).
// Uses GNU time (/usr/bin/time) for CPU and RSS when present; wall time always. Never runs a shell
// unless handed one (the baselines are shell pipelines on purpose).

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Run {
  wallMs: number;
  /** user + system, of the process and its children (the pipeline's, for a shell baseline). */
  cpuMs?: number;
  peakRssMb?: number;
}

export interface Timing {
  best: Run;
  median: Run;
  runs: Run[];
}

const GNU_TIME = '/usr/bin/time';
const hasGnuTime = existsSync(GNU_TIME);

function runOnce(argv: string[]): Promise<Run> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-time-'));
  const timeFile = path.join(scratch, 'time.txt');
  const command = hasGnuTime ? [GNU_TIME, '-f', '%e %U %S %M', '-o', timeFile, ...argv] : argv;
  const started = performance.now();
  return new Promise<Run>((resolve, reject) => {
    // stdout to nowhere: the document is produced and written, like `> /dev/null`.
    const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      try {
        // Exit 1 means findings (drift), which a benchmark may well have; anything else is a failure.
        if (code !== 0 && code !== 1) return reject(new Error(`${argv.join(' ')} exited with ${code}: ${stderr.slice(0, 500)}`));
        const run: Run = { wallMs };
        if (hasGnuTime) {
          const [, user, system, rssKb] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
          run.cpuMs = ((user ?? 0) + (system ?? 0)) * 1000;
          run.peakRssMb = (rssKb ?? 0) / 1024;
        }
        resolve(run);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    });
  });
}

/** Once to warm the page cache and anything else, then `runs` measured runs. */
export async function measure(argv: string[], runs: number): Promise<Timing> {
  await runOnce(argv);
  const measured: Run[] = [];
  for (let i = 0; i < runs; i += 1) measured.push(await runOnce(argv));
  const byWall = [...measured].sort((a, b) => a.wallMs - b.wallMs);
  return { best: byWall[0]!, median: byWall[Math.floor(byWall.length / 2)]!, runs: measured };
}

export const formatMs = (ms: number) =>
  ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
