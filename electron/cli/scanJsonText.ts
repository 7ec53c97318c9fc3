// The --json document of `scan` as text: byte for byte what JSON.stringify(jsonDocument(outcome),
// null, 2) prints, but with each destination's part rendered ahead, as its row comes back while the
// scan still reads (scanCommand.ts), so that the end of a large scan is a join and one write rather
// than a document of tens of megabytes built and printed after the last batch.

import type { ScannedDestination } from '../service/workspaceScan';
import { destinationJson, documentHead, jsonDocument, type ScanOutcome } from './renderScan';

type RowContext = Pick<ScanOutcome, 'verify' | 'verifiedAt' | 'rowHosts'>;

/** A destination's part as it stands in the document: at depth 2 (four spaces), without the comma after it. */
export function destinationText(outcome: RowContext, row: ScannedDestination, index: number): string {
  // Nested in two arrays, the row is printed at its depth in the document; the two wrappers (six
  // characters each side: `[\n  [\n` and `\n  ]\n]`) are cut off.
  return JSON.stringify([[destinationJson(outcome, row, index)]], null, 2).slice(6, -6);
}

/** The whole document and its newline; `rendered[index]`, where given, is that row's destinationText. */
export function documentText(outcome: ScanOutcome, rendered?: readonly (string | undefined)[]): string {
  if (!rendered || outcome.rows.length === 0) return `${JSON.stringify(jsonDocument(outcome), null, 2)}\n`;
  // `destinations` comes last: the head printed with none ends in `[]\n}`, where the rows go.
  const head = JSON.stringify({ ...documentHead(outcome), destinations: [] }, null, 2).slice(0, -4);
  const rows = outcome.rows.map((row, index) => rendered[index] ?? destinationText(outcome, row, index));
  return `${head}[\n${rows.join(',\n')}\n  ]\n}\n`;
}
