import { describe, expect, it } from 'vitest';
import type { BenchRow } from './bench';
import { jsonRow, parseBenchOptions } from './options';

const KNOWN = ['startup', 'scan', 'verify', 'replace', 'ui', 'watch'];

const parsed = (argv: string[]) => {
  const result = parseBenchOptions(argv, KNOWN);
  if (!result.ok) throw new Error(result.error);
  return result.value;
};
const refused = (argv: string[]) => {
  const result = parseBenchOptions(argv, KNOWN);
  if (result.ok) throw new Error(`accepted ${argv.join(' ')}`);
  return result.error;
};

describe('parseBenchOptions', () => {
  it('runs every benchmark, 5 paired runs, as text when nothing is given', () => {
    expect(parsed([])).toEqual({ only: KNOWN, json: false, quick: false, runs: 5 });
  });

  it('runs only the benchmarks --only names, comma-separated, in the known order', () => {
    expect(parsed(['--only', 'watch,scan']).only).toEqual(['scan', 'watch']);
    expect(parsed(['--only=ui']).only).toEqual(['ui']);
  });

  it('takes names as positionals and repeated --only alike, case-insensitively', () => {
    expect(parsed(['replace', '--only', 'Scan', '--only', ' watch ']).only).toEqual(['scan', 'replace', 'watch']);
  });

  it('refuses an unknown benchmark and lists the known ones', () => {
    expect(refused(['--only', 'scan,sacn'])).toBe('unknown benchmark sacn; known: startup, scan, verify, replace, ui, watch');
  });

  it('refuses an --only with no names in it', () => {
    expect(refused(['--only', ','])).toMatch(/^--only needs benchmark names/);
  });

  it('takes 3 runs with --quick unless --runs says otherwise', () => {
    expect(parsed(['--quick'])).toMatchObject({ quick: true, runs: 3 });
    expect(parsed(['--quick', '--runs', '7'])).toMatchObject({ quick: true, runs: 7 });
  });

  it('refuses --runs that is not a positive whole number', () => {
    for (const runs of ['0', '-2', '2.5', 'five'])
      expect(refused([`--runs=${runs}`])).toBe(`--runs needs a positive whole number, not ${runs}`);
  });

  it('refuses an unknown option with the usage line', () => {
    expect(refused(['--jsno'])).toMatch(/Unknown option '--jsno'.*usage: npm run bench -- \[--only startup,scan/);
  });
});

describe('jsonRow', () => {
  const row: BenchRow = {
    name: 'scan 10,000 destinations × 10 outputs',
    ours: { value: 640, min: 600, max: 700, cpu: { median: 1080, min: 1000, max: 1200 }, text: '640 ms [600 ms–700 ms], CPU 1.08 s' },
    baseline: { value: 220, min: 210, max: 230, text: '220 ms [210 ms–230 ms]' },
    baselineName: 'node: readdir + readFileSync + JSON.parse',
    ratio: 640 / 220,
    ratioText: '2.91× wall, 4.91× CPU',
    target: '≤ 1.5× wall, ≤ 2.5× CPU',
    met: false,
    notes: ['peak RSS 120 MB'],
  };

  it('puts name, ours, baseline, ratio, target and met first as plain values, how they were measured under details', () => {
    const json = jsonRow(row);
    expect(Object.keys(json)).toEqual(['name', 'ours', 'baseline', 'ratio', 'target', 'met', 'details']);
    expect(json).toMatchObject({ name: row.name, ours: 640, baseline: 220, ratio: 640 / 220, target: row.target, met: false });
    expect(json.details).toEqual({
      ours: row.ours,
      baseline: row.baseline,
      baselineName: row.baselineName,
      ratioText: row.ratioText,
      notes: row.notes,
    });
  });

  it('survives JSON.stringify with its numbers intact', () => {
    const back = JSON.parse(JSON.stringify(jsonRow(row))) as ReturnType<typeof jsonRow>;
    expect(back.ours).toBe(640);
    expect(back.details.ours.cpu).toEqual({ median: 1080, min: 1000, max: 1200 });
  });
});
