// The scan report as a document an operator keeps or feeds to a spreadsheet: JSON (everything) or
// CSV (one row per destination, RFC 4180 quoting). Pure: the caller supplies the rows and writes the file.
// Never emits a CSV cell a spreadsheet would run as a formula.

import type { DestinationEntry, ScanEntry, VerifyEntry } from '../../shared/api';
import { APP_VERSION } from '../../shared/appVersion';
import type { OpenWorkspace } from './sessionContext';
import { verifyHealth, type VerifyFreshness } from '../../shared/verifyFreshness';

/** A verify result as the session holds it: a stale one is reported as stale, never as intact or drifted. */
export interface ReportedVerify {
  report: VerifyEntry['report'];
  stamp: VerifyEntry['stamp'];
  freshness: VerifyFreshness;
}

export interface ReportInput {
  generatedAt: string;
  appVersion: string;
  workspace: { path: string; kind: 'folder' | 'file'; root: string };
  destinations: DestinationEntry[];
  scans: ReadonlyMap<string, ScanEntry>;
  verifies: ReadonlyMap<string, ReportedVerify>;
}

export function reportJson(input: ReportInput): string {
  const counts = {
    total: input.destinations.length,
    scanned: 0,
    empty: 0,
    unmanaged: 0,
    managed: 0,
    invalid: 0,
    intact: 0,
    drifted: 0,
    stale: 0,
  };
  const destinations = input.destinations.map((destination) => {
    const scan = input.scans.get(destination.id);
    const verify = input.verifies.get(destination.id);
    if (scan) {
      counts.scanned++;
      counts[scan.summary.status]++;
    }
    const health = verify ? verifyHealth({ status: verify.report.status, freshness: verify.freshness }) : undefined;
    if (health === 'intact' || health === 'drifted' || health === 'stale') counts[health]++;
    return {
      id: destination.id,
      path: destination.path,
      configured: { pipelineId: destination.pipelineId, destinationId: destination.destinationId, source: destination.source },
      status: scan?.summary.status ?? null,
      summary: scan?.summary ?? null,
      issues: scan?.inspection.issues ?? [],
      verify: verify ? { ...verify.report, health, verifiedAt: verify.stamp.verifiedAt, freshness: verify.freshness } : null,
    };
  });
  return `${JSON.stringify({ generatedAt: input.generatedAt, appVersion: input.appVersion, workspace: input.workspace, counts, destinations }, null, 2)}\n`;
}

export const CSV_COLUMNS = [
  'id',
  'path',
  'status',
  'pipeline_id',
  'destination_id',
  'published_at',
  'outputs',
  'errors',
  'warnings',
  'verify',
  'outputs_not_ok',
  'extra_files',
  'issue_codes',
] as const;

/** One RFC 4180 field: quoted when it holds a quote, comma or line break; formula starters neutralised. */
export function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  // =, +, -, @ (and tab/CR) at the start make Excel and LibreOffice evaluate the cell (CSV injection).
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function reportCsv(input: ReportInput): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const destination of input.destinations) {
    const scan = input.scans.get(destination.id);
    const held = input.verifies.get(destination.id);
    const verify = held?.report;
    const summary = scan?.summary;
    const row = [
      destination.id,
      destination.path,
      summary?.status,
      summary?.pipeline_id,
      summary?.destination_id,
      summary?.published_at,
      summary?.outputCount,
      summary?.errorCount,
      summary?.warningCount,
      held && verifyHealth({ status: held.report.status, freshness: held.freshness }),
      verify ? verify.outputs.filter((output) => output.status !== 'ok').length : undefined,
      verify?.extra.length,
      scan ? [...new Set(scan.inspection.issues.map((issue) => issue.code))].join(';') : undefined,
    ];
    lines.push(row.map(csvField).join(','));
  }
  // CRLF line ends, as RFC 4180 asks; spreadsheets on every platform read them.
  return `${lines.join('\r\n')}\r\n`;
}

/** The open workspace's last scan and verify results as the document `exportReport` answers. */
export function exportReport(open: OpenWorkspace, format: 'json' | 'csv'): { fileName: string; mediaType: string; content: string } {
  const input = {
    generatedAt: new Date().toISOString(),
    appVersion: APP_VERSION,
    workspace: { path: open.summary.path, kind: open.summary.kind, root: open.summary.root },
    destinations: open.summary.destinations,
    scans: open.scans,
    verifies: open.verifies,
  };
  const stamp = input.generatedAt.replace(/[:.]/g, '-');
  return format === 'json'
    ? { fileName: `distributor-report-${stamp}.json`, mediaType: 'application/json', content: reportJson(input) }
    : { fileName: `distributor-report-${stamp}.csv`, mediaType: 'text/csv', content: reportCsv(input) };
}
