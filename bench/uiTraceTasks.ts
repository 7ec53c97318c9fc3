// What the page's long tasks are made of, from the Chrome trace uiProfile.ts writes (TRACE=1):
// `npx tsx bench/uiTraceTasks.ts page-N.trace.json [page-N.cpuprofile] [--min MS] [--cpu]` prints each
// task of the page's main thread over MS (default 50) of wall time (--cpu: of its thread's CPU time),
// with its CPU time, the trace events it spent most of itself in (JSON parse shows as the function
// that called it, GC as V8.GC_*, layout as Layout) and, given the CPU profile, the functions its samples
// fall in; then the sums a loaded machine cannot stretch: the count of tasks over MS and their CPU.
// A tool, not a benchmark: reads the files it is given, writes nothing.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface TaskSums {
  longTasks: number;
  longWallMs: number;
  longCpuMs: number;
  allCpuMs: number;
}

const ms = (us: number) => Math.round(us / 1000);

/** The measured page's main thread: of the trace's renderer main threads, the one that ran the most script. */
function pageMainThread(events: readonly TraceEvent[]): string {
  const mains = events.filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  const calls = new Map<string, number>();
  for (const event of events)
    if (event.name === 'FunctionCall') calls.set(`${event.pid}:${event.tid}`, (calls.get(`${event.pid}:${event.tid}`) ?? 0) + 1);
  const keys = mains.map((event) => `${event.pid}:${event.tid}`);
  return keys.sort((a, b) => (calls.get(b) ?? 0) - (calls.get(a) ?? 0))[0] ?? '';
}

/** Self time per event name inside one task (nesting by containment on one thread). */
function selfTimes(inner: readonly TraceEvent[]): Map<string, number> {
  const self = new Map<string, number>();
  const open: TraceEvent[] = [];
  for (const event of inner) {
    while (open.length > 0 && open[open.length - 1]!.ts + open[open.length - 1]!.dur! <= event.ts) open.pop();
    const parent = open[open.length - 1];
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - Math.min(event.dur!, parent.ts + parent.dur! - event.ts));
    self.set(event.name, (self.get(event.name) ?? 0) + event.dur!);
    open.push(event);
  }
  return self;
}

function profileFunctions(profile: CpuProfile, from: number, to: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index]!;
    if (at < from || at >= to) return;
    const frame = byId.get(id)!.callFrame;
    const name = `${frame.functionName || '(anonymous)'}${frame.url ? ` ${path.basename(frame.url)}:${frame.lineNumber + 1}` : ''}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
    total += 1;
  });
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 5);
  return top.map(([name, count]) => `${name} ${Math.round((100 * count) / total)}%`).join(', ');
}

/** Prints each long task of the trace's page and returns the sums. */
export function longTasksOf(
  trace: { traceEvents?: TraceEvent[] } | TraceEvent[],
  options: { minMs?: number; byCpu?: boolean; profile?: CpuProfile; print?: (line: string) => void } = {},
): TaskSums {
  const events = Array.isArray(trace) ? trace : (trace.traceEvents ?? []);
  const main = pageMainThread(events);
  const onMain = events.filter((event) => event.ph === 'X' && `${event.pid}:${event.tid}` === main && event.dur !== undefined);
  const tasks = onMain.filter((event) => event.name === 'RunTask').sort((a, b) => a.ts - b.ts);
  const inner = onMain.filter((event) => event.name !== 'RunTask').sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const min = (options.minMs ?? 50) * 1000;
  const sums: TaskSums = { longTasks: 0, longWallMs: 0, longCpuMs: 0, allCpuMs: 0 };
  const origin = tasks[0]?.ts ?? 0;
  for (const task of tasks) {
    sums.allCpuMs += (task.tdur ?? 0) / 1000;
    if ((options.byCpu ? (task.tdur ?? 0) : task.dur!) < min) continue;
    sums.longTasks += 1;
    sums.longWallMs += task.dur! / 1000;
    sums.longCpuMs += (task.tdur ?? 0) / 1000;
    const end = task.ts + task.dur!;
    const made = [...selfTimes(inner.filter((event) => event.ts >= task.ts && event.ts < end))]
      .filter(([, self]) => self >= 2000)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([name, self]) => `${name} ${ms(self)}`)
      .join(', ');
    const functions = options.profile ? `\n    samples: ${profileFunctions(options.profile, task.ts, end)}` : '';
    options.print?.(`+${ms(task.ts - origin)} ms: ${ms(task.dur!)} ms wall, ${ms(task.tdur ?? 0)} ms CPU | ${made}${functions}`);
  }
  return { ...sums, longWallMs: Math.round(sums.longWallMs), longCpuMs: Math.round(sums.longCpuMs), allCpuMs: Math.round(sums.allCpuMs) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const flag = (name: string) => args.indexOf(name);
  const minAt = flag('--min');
  const minMs = minAt >= 0 ? Number(args[minAt + 1]) : 50;
  const files = args.filter((arg, index) => !arg.startsWith('--') && (minAt < 0 || index !== minAt + 1));
  if (files.length === 0) {
    console.error('usage: npx tsx bench/uiTraceTasks.ts page.trace.json [page.cpuprofile] [--min MS] [--cpu]');
    process.exit(2);
  }
  const trace = JSON.parse(readFileSync(files[0]!, 'utf8')) as { traceEvents?: TraceEvent[] };
  const profile = files[1] ? (JSON.parse(readFileSync(files[1], 'utf8')) as CpuProfile) : undefined;
  const sums = longTasksOf(trace, {
    minMs,
    byCpu: flag('--cpu') >= 0,
    ...(profile ? { profile } : {}),
    print: (line) => console.log(line),
  });
  console.log(
    `tasks over ${minMs} ms: ${sums.longTasks}, ${sums.longWallMs} ms wall, ${sums.longCpuMs} ms CPU; every task of the page's main thread: ${sums.allCpuMs} ms CPU`,
  );
}
