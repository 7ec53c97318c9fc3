import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { coresBusySince, parseCpuSample, parseOwnTicks, readCpuSample, spareCoresBetween, type CpuSample } from './idleCores';

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
    expect(spareCoresBetween(before, { idleTicks: 110, totalTicks: 1020 }, 2)).toBe(1);
    expect(spareCoresBetween(before, { idleTicks: 100, totalTicks: 1020 }, 2)).toBe(0);
    expect(spareCoresBetween(before, { idleTicks: 102, totalTicks: 1004 }, 2)).toBeUndefined();
  });

  it("counts this process's own threads beyond its busy one as free, not as another program's load", () => {
    const before: CpuSample = { idleTicks: 100, totalTicks: 1000, ownTicks: 50 };
    // An idle machine as a 2-core scan's startup sees it: the main thread a whole core, V8's compiler a third of the other.
    expect(spareCoresBetween(before, { idleTicks: 120, totalTicks: 1060, ownTicks: 90 }, 2)).toBeCloseTo(1);
    // Another program holds the second core: only its idle time, however busy this process was.
    expect(spareCoresBetween(before, { idleTicks: 100, totalTicks: 1060, ownTicks: 80 }, 2)).toBe(0);
    // This process used less than its one thread (it waited on the disk, counted idle): nothing is added.
    expect(spareCoresBetween(before, { idleTicks: 140, totalTicks: 1060, ownTicks: 60 }, 2)).toBeCloseTo(4 / 3);
  });

  it('reads the user and system ticks of /proc/self/stat, whatever the command name holds', () => {
    const tail = 'S 1 2 3 0 -1 4194560 100 0 0 0 1234 567 0 0 20 0 3 0 99 1000 200';
    expect(parseOwnTicks(`42 (node) ${tail}`)).toBe(1234 + 567);
    expect(parseOwnTicks(`42 (a) (b ) c) ${tail}`)).toBe(1234 + 567);
    expect(parseOwnTicks('42 (node) S 1 2')).toBeUndefined();
    fc.assert(
      fc.property(fc.string(), fc.nat(), fc.nat(), (name, user, system) => {
        const line = `7 (${name}) S 1 2 3 0 -1 0 0 0 0 0 ${user} ${system} 0 0 20 0 1 0 5 6 7`;
        expect(parseOwnTicks(line)).toBe(user + system);
      }),
    );
  });

  it('reads this machine when it is Linux', () => {
    const sample = readCpuSample();
    if (process.platform !== 'linux') return expect(sample).toBeUndefined();
    expect(sample!.totalTicks).toBeGreaterThan(sample!.idleTicks);
    expect(sample!.ownTicks).toBeGreaterThanOrEqual(0);
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

  it("says idle when only this process's own helper threads kept the second core part busy", () => {
    const own = { idleTicks: 0, totalTicks: 0, ownTicks: 0 };
    const helped = () => ({ idleTicks: 33, totalTicks: 100, ownTicks: 67 });
    expect(coresBusySince(own, { cores: 2, sample: helped, loadAverage: () => 3 })()).toBe(false);
    const shared = () => ({ idleTicks: 33, totalTicks: 100, ownTicks: 50 });
    expect(coresBusySince(own, { cores: 2, sample: shared, loadAverage: () => 0 })()).toBe(true);
  });

  it('falls back on the load average without a first sample or over too short a window', () => {
    expect(coresBusySince(undefined, { cores: 2, loadAverage: () => 2 })()).toBe(true);
    expect(coresBusySince(undefined, { cores: 2, loadAverage: () => 1.5 })()).toBe(false);
    const tooShort = () => ({ idleTicks: 2, totalTicks: 2 });
    expect(coresBusySince(before, { cores: 2, sample: tooShort, loadAverage: () => 3 })()).toBe(true);
  });
});
