import { describe, expect, it } from 'vitest';
import { measurePaired, pairedOrder, runOnce, spreadOf, timingOf, type Run } from './measure';

describe('spreadOf', () => {
  it('gives the middle sample of an odd count, and the min and max', () => {
    expect(spreadOf([5, 1, 9, 3, 7])).toEqual({ median: 5, min: 1, max: 9 });
  });

  it('gives the mean of the two middle samples of an even count', () => {
    expect(spreadOf([4, 1, 3, 10])).toEqual({ median: 3.5, min: 1, max: 10 });
  });

  it('is not moved by one slow outlier the way a mean is', () => {
    expect(spreadOf([100, 101, 99, 102, 5000]).median).toBe(101);
  });

  it('leaves the samples it was given in their order', () => {
    const samples = [3, 1, 2];
    spreadOf(samples);
    expect(samples).toEqual([3, 1, 2]);
  });
});

describe('timingOf', () => {
  it('gives CPU only when every run measured it', () => {
    expect(
      timingOf([
        { wallMs: 10, cpuMs: 8 },
        { wallMs: 12, cpuMs: 9 },
        { wallMs: 11, cpuMs: 30 },
      ]).cpu,
    ).toEqual({ median: 9, min: 8, max: 30 });
    expect(timingOf([{ wallMs: 10, cpuMs: 8 }, { wallMs: 12 }]).cpu).toBeUndefined();
  });

  it('keeps the highest peak memory of the runs', () => {
    expect(timingOf([{ wallMs: 1, peakRssMb: 90 }, { wallMs: 1, peakRssMb: 120 }, { wallMs: 1 }]).peakRssMb).toBe(120);
  });
});

describe('pairedOrder', () => {
  it('alternates which side runs first, pair by pair', () => {
    expect(pairedOrder(3).map(({ side, run }) => `${side}${run}`)).toEqual([
      'ours0',
      'baseline0',
      'baseline1',
      'ours1',
      'ours2',
      'baseline2',
    ]);
  });

  it('runs each side exactly `runs` times', () => {
    const order = pairedOrder(7);
    expect(order.filter((entry) => entry.side === 'ours')).toHaveLength(7);
    expect(order.filter((entry) => entry.side === 'baseline')).toHaveLength(7);
  });
});

describe('measurePaired', () => {
  /** Two fake sides that record the order they ran in; each run's wall time is its place in that order. */
  function recorder() {
    const log: string[] = [];
    const side = (name: string) => async (): Promise<Run> => {
      log.push(name);
      return { wallMs: log.length, cpuMs: log.length / 2 };
    };
    return { log, ours: side('ours'), baseline: side('baseline') };
  }

  it('warms each side up once, then runs the pairs in the alternating order, the warm-ups left out of the figures', async () => {
    const { log, ours, baseline } = recorder();
    const pair = await measurePaired(ours, baseline, { runs: 5 });
    expect(log).toEqual(['ours', 'baseline', ...pairedOrder(5).map((entry) => entry.side)]);
    expect(pair.ours.runs.map((run) => run.wallMs)).toEqual([3, 6, 7, 10, 11]);
    expect(pair.baseline.runs.map((run) => run.wallMs)).toEqual([4, 5, 8, 9, 12]);
    expect(pair.ours.wall).toEqual({ median: 7, min: 3, max: 11 });
    expect(pair.ours.cpu?.median).toBe(3.5);
  });

  it('skips the warm-ups when asked', async () => {
    const { log, ours, baseline } = recorder();
    await measurePaired(ours, baseline, { runs: 1, noWarmUp: true });
    expect(log).toEqual(['ours', 'baseline']);
  });

  it('prepares every run, warm-ups included, before it runs and untimed', async () => {
    const { log, ours, baseline } = recorder();
    const prepared: string[] = [];
    await measurePaired(ours, baseline, {
      runs: 2,
      prepare: (side, run) => {
        prepared.push(`${side}${run}`);
        log.push(`prepare ${side}`);
      },
    });
    expect(prepared).toEqual(['ours-1', 'baseline-1', 'ours0', 'baseline0', 'baseline1', 'ours1']);
    expect(log.filter((entry) => !entry.startsWith('prepare'))).toEqual(['ours', 'baseline', 'ours', 'baseline', 'baseline', 'ours']);
    expect(log.slice(0, 2)).toEqual(['prepare ours', 'ours']);
  });

  it('fails when a side fails, rather than timing a run that did not do the work', async () => {
    const failing = () => Promise.reject(new Error('exited with 2'));
    await expect(measurePaired(failing, recorder().baseline, { runs: 5 })).rejects.toThrow('exited with 2');
  });
});

describe('runOnce', () => {
  it('times a run that ends with an allowed exit code', async () => {
    const run = await runOnce(['node', '-e', 'process.stdout.write("x".repeat(100000))']);
    expect(run.wallMs).toBeGreaterThan(0);
  });

  it('fails a run that ends otherwise, with the end of its stdout and stderr: the reason a refused run printed', async () => {
    const script = 'console.log("line ".repeat(2000) + "refused: the source changed"); console.error("on stderr"); process.exit(2)';
    const failure = runOnce(['node', '-e', script], [0]);
    await expect(failure).rejects.toThrow(/exited with 2\nstdout: …[a-z ]+ refused: the source changed\n\nstderr: on stderr/);
  });
});
