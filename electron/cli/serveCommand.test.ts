// `serve` as the operator runs it, in a child process (the built dist/cli.js), on a workspace
// whose history journal is a FIFO (issue 26 point 4): the history calls are answered at once (the
// FIFO is refused, never opened, so no libuv thread is held), and the first SIGTERM stops the host
// within a bounded time. With a blocking open (the bug) the calls time out and the process stays
// alive after "Stopped.", past the deadline below.

import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../testing/fixtures';
import { ensureBuiltCli } from '../testing/sshHarness';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** More than libuv's four threads: each would be held by a blocking open of the FIFO. */
const CALLS = 6;
const STOP_WITHIN_MS = 10_000;
const ANSWER_WITHIN_MS = 5_000;

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) await removeTempDir(dir);
});

/** Resolves with the child's exit once it exits; rejects after `ms`. */
function exitWithin(child: ChildProcess, ms: number): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode });
    const timer = setTimeout(() => reject(new Error(`serve was still running ${ms} ms after its first SIGTERM`)), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/** Starts `serve` and waits (bounded) for the address it prints. */
async function startServe(args: string[]): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const child = spawn(process.execPath, [await ensureBuiltCli(), 'serve', ...args], {
    cwd: REPO,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no address within 30 s:\n${output}`)), 30_000);
    const check = () => {
      const match = /Open: http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve(Number(match[1]));
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before printing its address:\n${output}`));
    });
  });
  return { child, port, output: () => output };
}

describe.skipIf(process.platform === 'win32')('serve stopped by SIGTERM', () => {
  it('answers history calls on a FIFO journal at once, then stops on its first SIGTERM', async () => {
    const root = await makeTempDir('serve-sigterm-');
    dirs.push(root);
    execFileSync('mkfifo', [path.join(root, 'journal.jsonl')]);
    const workspace = path.join(root, 'distributor-inspector.json');
    await fs.writeFile(workspace, JSON.stringify({ destinations: [], history: 'journal.jsonl' }));
    const token = 'a'.repeat(43);
    const tokenFile = path.join(root, 'token');
    await fs.writeFile(tokenFile, `${token}\n`, { mode: 0o600 });
    const { child, port, output } = await startServe([workspace, '--port', '0', '--token-file', tokenFile]);

    const calls = Promise.allSettled(
      Array.from({ length: CALLS }, async () => {
        const response = await fetch(`http://127.0.0.1:${port}/api/history`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-inspector-token': token },
          body: '{}',
          signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
        });
        return (await response.json()) as { ok: boolean; error?: { code: string; message: string } };
      }),
    );
    // The SIGTERM goes once the calls are answered, or once they have had their time: a host whose
    // threads are held by the FIFO must still stop.
    await calls;

    child.kill('SIGTERM');
    const ended = await exitWithin(child, STOP_WITHIN_MS);
    expect(ended, output()).toEqual({ code: 0, signal: null });
    expect(output()).toContain('Stopped.');
    for (const answer of await calls) {
      expect(answer.status).toBe('fulfilled');
      const value = answer.status === 'fulfilled' ? answer.value : undefined;
      expect(value).toMatchObject({ ok: false, error: { code: 'history_unreadable' } });
      expect(value?.error?.message).toContain('FIFO');
    }
  }, 60_000);
});
