// A scan's rows as the transports to a page carry them (the browser host's event stream, Electron's
// IPC): an `items` event of a scan sends `rows`, its batch packed, instead of `items`. Each row is an
// array in a fixed order, and the words rows repeat (statuses, the folder above each destination,
// digests, pipeline ids, publish times, the sync decision with its title and sentence) are sent once a
// batch and named by their index: a row is ~4× fewer bytes for the host to write, Chromium to carry
// and the page to parse, and the page gets back rows that share those words. Unpacked into the same
// ScanEntry the zod schema declares (shared/apiEntries.ts), so the type is declared once; a row the
// packer does not know a field of fails its test (scanRowsWire.test.ts), never drops it silently.
// Must never import zod (the page's first screen unpacks rows), Node, Electron or the DOM.

import { apiError } from './apiNames';
import type { ScanEntry } from './apiEntries';
import type { ApiResult } from './apiError';
import type { ApiEvent } from './api';

/** The version of this layout: a page refuses a batch of another, by name. */
export const SCAN_ROWS_LAYOUT = 1;

/** A text field: the string itself, or the index of a word in the batch's `words`. */
type Text = string | number;

/**
 * One row, in this order: destination, path's folder (with its last separator), path's name, status,
 * issues, stateSha256, hasContent, listingDigest, outputsDigest, summary's status, outputCount,
 * errorCount, warningCount, pipeline_id, destination_id, published_at, sync (an index in `syncs`),
 * rare fields (stateJson, stateWithheld). An absent optional field is null.
 */
export type PackedScanRow = [
  destination: string,
  folder: Text,
  name: string,
  status: Text,
  issues: ScanEntry['inspection']['issues'],
  stateSha256: Text | null,
  hasContent: boolean,
  listingDigest: Text | null,
  outputsDigest: Text | null,
  summaryStatus: Text,
  outputCount: number,
  errorCount: number,
  warningCount: number,
  pipelineId: Text | null,
  destinationId: Text | null,
  publishedAt: Text | null,
  sync: number | null,
  rare: Pick<ScanEntry['inspection'], 'stateJson' | 'stateWithheld'> | null,
];

export interface PackedScanRows {
  layout: typeof SCAN_ROWS_LAYOUT;
  words: string[];
  syncs: NonNullable<ScanEntry['sync']>[];
  rows: PackedScanRow[];
}

/** The fields of a ScanEntry the layout carries, by object: its test holds them equal to the schema's. */
export const PACKED_FIELDS = {
  entry: ['destination', 'inspection', 'summary', 'sync'],
  inspection: ['path', 'status', 'issues', 'stateJson', 'stateSha256', 'stateWithheld', 'hasContent', 'listingDigest', 'outputsDigest'],
  summary: ['status', 'outputCount', 'errorCount', 'warningCount', 'pipeline_id', 'destination_id', 'published_at'],
} as const;

const ROW_LENGTH = 18;

/** Packs one batch of rows (the host, as an `items` event of a scan leaves for a page). */
export function packScanRows(entries: readonly ScanEntry[]): PackedScanRows {
  const words: string[] = [];
  const wordIndex = new Map<string, number>();
  const word = (value: string): number => {
    let index = wordIndex.get(value);
    if (index === undefined) {
      index = words.push(value) - 1;
      wordIndex.set(value, index);
    }
    return index;
  };
  const optionalWord = (value: string | undefined): number | null => (value === undefined ? null : word(value));
  const syncs: PackedScanRows['syncs'] = [];
  const syncIndex = new Map<string, number>();
  const rows = entries.map((entry): PackedScanRow => {
    const { inspection, summary, sync } = entry;
    const cut = inspection.path.lastIndexOf('/') + 1;
    let syncAt: number | null = null;
    if (sync) {
      const key = `${sync.kind}\u0000${sync.decision ?? ''}\u0000${sync.reason ?? ''}\u0000${sync.title}\u0000${sync.sentence}`;
      syncAt = syncIndex.get(key) ?? null;
      if (syncAt === null) {
        syncAt = syncs.push(sync) - 1;
        syncIndex.set(key, syncAt);
      }
    }
    const rare =
      inspection.stateJson !== undefined || inspection.stateWithheld !== undefined
        ? {
            ...(inspection.stateJson !== undefined ? { stateJson: inspection.stateJson } : {}),
            ...(inspection.stateWithheld !== undefined ? { stateWithheld: inspection.stateWithheld } : {}),
          }
        : null;
    return [
      entry.destination,
      word(inspection.path.slice(0, cut)),
      inspection.path.slice(cut),
      word(inspection.status),
      inspection.issues,
      // Unique to a row: a word would only add its index.
      inspection.stateSha256 ?? null,
      inspection.hasContent,
      optionalWord(inspection.listingDigest),
      optionalWord(inspection.outputsDigest),
      word(summary.status),
      summary.outputCount,
      summary.errorCount,
      summary.warningCount,
      optionalWord(summary.pipeline_id),
      summary.destination_id ?? null,
      optionalWord(summary.published_at),
      syncAt,
      rare,
    ];
  });
  return { layout: SCAN_ROWS_LAYOUT, words, syncs, rows };
}

class Malformed extends Error {}

/**
 * The rows of a packed batch, each a ScanEntry equal to the one packed (its words shared between
 * rows); a batch that does not keep the layout is refused, the field named ("rows[3].inspection.path").
 * Never throws.
 */
export function unpackScanRows(raw: unknown): ApiResult<ScanEntry[]> {
  try {
    return { ok: true, value: unpack(raw) };
  } catch (cause) {
    if (!(cause instanceof Malformed)) throw cause;
    return { ok: false, error: apiError('internal', `scan: the host's batch of rows is malformed at ${cause.message}`) };
  }
}

const fail = (field: string, expected: string): never => {
  throw new Malformed(`${field}: expected ${expected}`);
};

/** The names of a row's cells, for an error: only built when a row is refused. */
const CELL_FIELDS = [
  'destination',
  'inspection.path',
  'inspection.path',
  'inspection.status',
  'inspection.issues',
  'inspection.stateSha256',
  'inspection.hasContent',
  'inspection.listingDigest',
  'inspection.outputsDigest',
  'summary.status',
  'summary.outputCount',
  'summary.errorCount',
  'summary.warningCount',
  'summary.pipeline_id',
  'summary.destination_id',
  'summary.published_at',
  'sync',
  'inspection',
] as const;

// Per-row helpers take the row's index only to name a field: a page unpacks 100,000 rows, and a
// closure or a field name made per row would be garbage for each.
function text(cells: unknown[], cell: number, words: string[], row: number): string {
  const value = cells[cell];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && value >= 0 && value < words.length && Number.isInteger(value)) return words[value]!;
  return fail(`rows[${row}].${CELL_FIELDS[cell]}`, 'a string or the index of a word');
}

function optionalText(cells: unknown[], cell: number, words: string[], row: number): string | undefined {
  return cells[cell] === null ? undefined : text(cells, cell, words, row);
}

function count(cells: unknown[], cell: number, row: number): number {
  const value = cells[cell];
  return typeof value === 'number' ? value : fail(`rows[${row}].${CELL_FIELDS[cell]}`, 'a number');
}

function unpack(raw: unknown): ScanEntry[] {
  if (typeof raw !== 'object' || raw === null) fail('rows', 'an object');
  const batch = raw as Partial<PackedScanRows>;
  if (batch.layout !== SCAN_ROWS_LAYOUT) fail('rows.layout', `layout ${SCAN_ROWS_LAYOUT}`);
  const { words, syncs, rows } = batch as PackedScanRows;
  if (!Array.isArray(words) || !words.every((value) => typeof value === 'string')) fail('rows.words', 'an array of strings');
  if (!Array.isArray(syncs)) fail('rows.syncs', 'an array');
  syncs.forEach((sync, index) => {
    const at = `rows.syncs[${index}]`;
    if (typeof sync !== 'object' || sync === null) fail(at, 'an object');
    for (const key of ['kind', 'title', 'sentence'] as const) if (typeof sync[key] !== 'string') fail(`${at}.${key}`, 'a string');
  });
  if (!Array.isArray(rows)) fail('rows.rows', 'an array');
  const entries = new Array<ScanEntry>(rows.length);
  for (let index = 0; index < rows.length; index += 1) {
    const cells = rows[index] as unknown[];
    if (!Array.isArray(cells) || cells.length !== ROW_LENGTH) fail(`rows[${index}]`, `an array of ${ROW_LENGTH}`);
    const destination = cells[0];
    if (typeof destination !== 'string') fail(`rows[${index}].destination`, 'a string');
    const name = cells[2];
    if (typeof name !== 'string') fail(`rows[${index}].inspection.path`, 'a string (its name)');
    const issues = cells[4];
    if (!Array.isArray(issues)) fail(`rows[${index}].inspection.issues`, 'an array');
    const hasContent = cells[6];
    if (typeof hasContent !== 'boolean') fail(`rows[${index}].inspection.hasContent`, 'a boolean');
    const syncAt = cells[16];
    if (syncAt !== null && !(typeof syncAt === 'number' && syncAt >= 0 && syncAt < syncs.length && Number.isInteger(syncAt)))
      fail(`rows[${index}].sync`, 'null or the index of a sync');
    const rare = cells[17];
    if (rare !== null && (typeof rare !== 'object' || Array.isArray(rare)))
      fail(`rows[${index}].inspection`, 'null or an object (stateJson, stateWithheld)');
    const inspection: ScanEntry['inspection'] = {
      path: text(cells, 1, words, index) + (name as string),
      status: text(cells, 3, words, index) as ScanEntry['inspection']['status'],
      issues: issues as ScanEntry['inspection']['issues'],
      hasContent: hasContent as boolean,
    };
    const stateSha256 = optionalText(cells, 5, words, index);
    if (stateSha256 !== undefined) inspection.stateSha256 = stateSha256;
    const listingDigest = optionalText(cells, 7, words, index);
    if (listingDigest !== undefined) inspection.listingDigest = listingDigest;
    const outputsDigest = optionalText(cells, 8, words, index);
    if (outputsDigest !== undefined) inspection.outputsDigest = outputsDigest;
    if (rare !== null) Object.assign(inspection, rare);
    const summary: ScanEntry['summary'] = {
      status: text(cells, 9, words, index) as ScanEntry['summary']['status'],
      outputCount: count(cells, 10, index),
      errorCount: count(cells, 11, index),
      warningCount: count(cells, 12, index),
    };
    const pipelineId = optionalText(cells, 13, words, index);
    if (pipelineId !== undefined) summary.pipeline_id = pipelineId;
    const destinationId = optionalText(cells, 14, words, index);
    if (destinationId !== undefined) summary.destination_id = destinationId;
    const publishedAt = optionalText(cells, 15, words, index);
    if (publishedAt !== undefined) summary.published_at = publishedAt;
    const entry: ScanEntry = { destination: destination as string, inspection, summary };
    if (syncAt !== null) entry.sync = syncs[syncAt as number];
    entries[index] = entry;
  }
  return entries;
}

/** An `items` event of a scan as it leaves for a page: `rows`, its batch packed, in place of `items`. */
export interface ScanRowsEvent {
  job: string;
  method: 'scan';
  rows: PackedScanRows;
}

/** What a transport to a page sends for an event: a scan's items packed, every other event as it is. */
export function eventForPage(event: ApiEvent): { event: ApiEvent['event']; data: unknown } {
  if (event.event !== 'items' || event.data.method !== 'scan') return event;
  const { job, items } = event.data;
  const data: ScanRowsEvent = { job, method: 'scan', rows: packScanRows(items) };
  return { event: 'items', data };
}
