import { describe, expect, it } from 'vitest';
import { coresBusySince, idleCoresBetween, parseCpuSample, readCpuSample, type CpuSample } from './idleCores';

const PROC_STAT = `cpu  3848998 94213 1406761 832028 38588 0 23668 41853 0 0
cpu0 1924499 47106 703380 416014 19294 0 11834 20926 0 0
intr 1 2 3
`;

describe('the idle cores between two samples of /proc/stat', () => {
  it('reads the aggregate line, counting a core that waits on the disk as idle', () => {
    expect(parseCpuSample(PROC_STAT)).toEqual({
      idleTicks: 832028 + 38588,
      totalTicks: 3848998 + 94213 + 1406761 + 832028 + 38588 + 0 + 23668 + 41853,
    });
  });

  it('refuses a text without the aggregate line, or with too few fields', () => {
    expect(parseCpuSample('cpu0 1 2 3 4 5\n')).toBeUndefined();
    expect(parseCpuSample('cpu  1 2 3\n')).toBeUndefined();
    expect(parseCpuSample('')).toBeUndefined();
  });

  it('gives the cores idle on average, and nothing over a window too short to tell', () => {
    const before: CpuSample = { idleTicks: 100, totalTicks: 1000 };
    expect(idleCoresBetween(before, { idleTicks: 110, totalTicks: 1020 }, 2)).toBe(1);
    expect(idleCoresBetween(before, { idleTicks: 100, totalTicks: 1020 }, 2)).toBe(0);
    expect(idleCoresBetween(before, { idleTicks: 102, totalTicks: 1004 }, 2)).toBeUndefined();
  });

  it('reads this machine when it is Linux', () => {
    const sample = readCpuSample();
    if (process.platform !== 'linux') return expect(sample).toBeUndefined();
    expect(sample!.totalTicks).toBeGreaterThan(sample!.idleTicks);
  });
});

describe('whether the cores are busy for a scan', () => {
  const before: CpuSample = { idleTicks: 0, totalTicks: 0 };
  const after =
    (idleTicks: number): (() => CpuSample) =>
    () => ({ idleTicks, totalTicks: 100 });

  it('says idle when a core stood idle beside this thread, whatever the load average says', () => {
    expect(coresBusySince(before, { cores: 2, sample: after(50), loadAverage: () => 30 })()).toBe(false);
  });

  it('says busy when no core stood idle, however low the load average', () => {
    expect(coresBusySince(before, { cores: 2, sample: after(10), loadAverage: () => 0 })()).toBe(true);
  });

  it('falls back on the load average without a first sample or over too short a window', () => {
    expect(coresBusySince(undefined, { cores: 2, loadAverage: () => 2 })()).toBe(true);
    expect(coresBusySince(undefined, { cores: 2, loadAverage: () => 1.5 })()).toBe(false);
    const tooShort = () => ({ idleTicks: 2, totalTicks: 2 });
    expect(coresBusySince(before, { cores: 2, sample: tooShort, loadAverage: () => 3 })()).toBe(true);
  });
});
