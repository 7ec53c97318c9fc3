import { describe, expect, it } from 'vitest';
import { cpuBetween, parseProcStat, readTreeCpu } from './processCpu';

describe('the CPU of a tree of processes', () => {
  it('reads ppid and the four CPU times from a stat line whose name holds spaces and parentheses', () => {
    const line = '4242 (chromium (gpu) x) S 4000 4242 4000 0 -1 4194560 100 0 0 0 250 50 7 3 20 0 12 0 500 1000 100';
    expect(parseProcStat(line)).toEqual({ ppid: 4000, cpuMs: 3100 });
  });

  it('counts a new process from zero and a process gone since through its parent’s reaped time', () => {
    const before = new Map([
      [1, 1000],
      [2, 300],
    ]);
    // Process 2 ended: its 300 ms before and 100 ms since moved into its parent's children's time.
    const after = new Map([
      [1, 1000 + 50 + 400],
      [3, 20],
    ]);
    expect(cpuBetween(before, after)).toBe(50 + 100 + 20);
  });

  it('finds this process in its own tree, and below it only the children it started, leaving out an excluded one', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const linux = process.platform === 'linux';
      expect(readTreeCpu(process.pid).has(process.pid)).toBe(linux);
      const below = readTreeCpu(process.pid, { belowOnly: true });
      expect([below.has(process.pid), below.has(child.pid!)]).toEqual([false, linux]);
      expect(readTreeCpu(process.pid, { belowOnly: true, exclude: [child.pid!] }).has(child.pid!)).toBe(false);
    } finally {
      child.kill();
    }
  });
});
