// CPU time of a tree of processes from /proc (Linux): what the UI bench's page load cost the browser
// host and Chromium (its browser, network, GPU and renderer processes), so a change that moves work
// between them, or only waits less, is told from one that saves work. A reading is per process;
// a process that ended between two readings is counted through its parent's reaped-children time.
// Reads /proc only; elsewhere every reading is empty and the figures are left out.

import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc counts CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  ppid: number;
  /** utime + stime + cutime + cstime, in ms. */
  cpuMs: number;
}

/** The fields of /proc/PID/stat after the command name, which may hold spaces and parentheses. */
export function parseProcStat(text: string): ProcStat | undefined {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
  const numbers = [1, 11, 12, 13, 14].map((index) => Number(fields[index]));
  if (numbers.some((value) => !Number.isFinite(value))) return undefined;
  const [ppid, ...times] = numbers as [number, ...number[]];
  return { ppid, cpuMs: (times.reduce((sum, ticks) => sum + ticks, 0) * 1000) / TICKS_PER_SECOND };
}

function readAll(): Map<number, ProcStat> {
  const stats = new Map<number, ProcStat>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return stats;
  }
  for (const pid of pids) {
    try {
      const stat = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      if (stat) stats.set(Number(pid), stat);
    } catch {
      // Gone since the listing.
    }
  }
  return stats;
}

/**
 * Each process's CPU in the tree under `root`, the root itself counted unless `belowOnly`; the trees
 * under `exclude` left out (a bench counts Chromium as its own descendants besides the host's).
 */
export function readTreeCpu(root: number, options: { exclude?: number[]; belowOnly?: boolean } = {}): Map<number, number> {
  const stats = readAll();
  const children = new Map<number, number[]>();
  for (const [pid, stat] of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  const tree = new Map<number, number>();
  const skipped = new Set(options.exclude ?? []);
  const walk = (pid: number, counted: boolean) => {
    if (skipped.has(pid) || tree.has(pid)) return;
    const stat = stats.get(pid);
    if (stat && counted) tree.set(pid, stat.cpuMs);
    for (const child of children.get(pid) ?? []) walk(child, true);
  };
  walk(root, !options.belowOnly);
  return tree;
}

/**
 * The CPU spent between two readings: a process new in the second counts from zero; one gone from it
 * was reaped into its parent's children's time, which holds its time before the first reading too.
 */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, cpuMs] of after) total += cpuMs - (before.get(pid) ?? 0);
  for (const [pid, cpuMs] of before) if (!after.has(pid)) total -= cpuMs;
  return total;
}
