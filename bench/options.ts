// The pure parts of `npm run bench`: its command line (which benchmarks, --json, --quick, --runs)
// and the JSON shape of a row. No I/O, so bench/options.test.ts holds them.

import { parseArgs } from 'node:util';
import type { BenchRow } from './bench';

export interface BenchOptions {
  /** The benchmarks to run, in the order of the known list; every one when nothing was named. */
  only: string[];
  json: boolean;
  quick: boolean;
  /** Measured pairs per row (after one warm-up each): 5 by default, 3 with --quick. */
  runs: number;
}

export type ParsedOptions = { ok: true; value: BenchOptions } | { ok: false; error: string };

/**
 * `npm run bench -- [NAME…] [--only a,b] [--json] [--quick] [--runs N]`: names given either way
 * (positionals, or --only with commas, repeatable) select benchmarks by name, case-insensitively.
 */
export function parseBenchOptions(argv: string[], known: readonly string[]): ParsedOptions {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (cause) {
    return {
      ok: false,
      error: `${(cause as Error).message}; usage: npm run bench -- [--only ${known.join(',')}] [--json] [--quick] [--runs N]`,
    };
  }
  const { values, positionals } = parsed;
  const asked = [...positionals, ...(values.only ?? []).flatMap((list) => list.split(','))].map((name) => name.trim()).filter(Boolean);
  if (values.only !== undefined && asked.length === 0)
    return { ok: false, error: `--only needs benchmark names; known: ${known.join(', ')}` };
  const byLowerName = new Map(known.map((name) => [name.toLowerCase(), name]));
  const unknown = asked.filter((name) => !byLowerName.has(name.toLowerCase()));
  if (unknown.length > 0) return { ok: false, error: `unknown benchmark ${unknown.join(', ')}; known: ${known.join(', ')}` };
  const chosen = new Set(asked.map((name) => byLowerName.get(name.toLowerCase())!));
  const quick = values.quick === true;
  const runs = values.runs === undefined ? (quick ? 3 : 5) : Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) return { ok: false, error: `--runs needs a positive whole number, not ${values.runs}` };
  return {
    ok: true,
    value: { only: known.filter((name) => chosen.size === 0 || chosen.has(name)), json: values.json === true, quick, runs },
  };
}

function parseOptions(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { json: { type: 'boolean' }, quick: { type: 'boolean' }, runs: { type: 'string' }, only: { type: 'string', multiple: true } },
  });
}

/** A row as `--json` prints it: what a script checks first, then how it was measured. */
export interface JsonRow {
  name: string;
  /** null when the benchmark failed (error says why). */
  ours: number | null;
  baseline: number | null;
  ratio: number | null;
  target: string;
  met: boolean;
  /** Present when the benchmark threw: its reason. */
  error?: string;
  details: Pick<BenchRow, 'ours' | 'baseline' | 'baselineName' | 'ratioText' | 'notes'>;
}

export function jsonRow(row: BenchRow): JsonRow {
  return {
    name: row.name,
    ours: numberOrNull(row.ours.value),
    baseline: numberOrNull(row.baseline.value),
    ratio: numberOrNull(row.ratio),
    target: row.target,
    met: row.met,
    ...(row.error !== undefined ? { error: row.error } : {}),
    details: { ours: row.ours, baseline: row.baseline, baselineName: row.baselineName, ratioText: row.ratioText, notes: row.notes },
  };
}

/** JSON has no NaN or Infinity (JSON.stringify would write null without saying so): said as null here. */
function numberOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}
