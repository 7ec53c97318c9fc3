// Runs the benchmarks of `npm run bench` in turn so that one failing never takes the others' figures
// with it: a benchmark that throws, or lets an error escape (a rejected promise nobody awaited, a
// throw in an event handler) while it runs, gives a failed row naming it and the reason, and the
// next one runs. Must never let a benchmark's failure end the process.

import { failedRow, type Bench, type BenchContext, type BenchRow } from './bench';

export async function runBenches(
  benches: readonly Bench[],
  context: BenchContext,
  onStart: (bench: Bench) => void = () => {},
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  let stray: unknown[] = [];
  const onStray = (cause: unknown) => {
    stray.push(cause);
    context.log(
      `an error escaped the benchmark that was running: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`,
    );
  };
  process.on('unhandledRejection', onStray);
  process.on('uncaughtException', onStray);
  try {
    for (const bench of benches) {
      stray = [];
      onStart(bench);
      try {
        rows.push(...(await bench.run(context)));
      } catch (cause) {
        context.log(`${bench.name} failed: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`);
        rows.push(failedRow(bench.name, cause));
        continue;
      }
      if (stray.length > 0) rows.push(failedRow(bench.name, stray[0]));
    }
  } finally {
    process.off('unhandledRejection', onStray);
    process.off('uncaughtException', onStray);
  }
  return rows;
}
