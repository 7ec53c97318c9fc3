// The --json document of `scan` as text: byte for byte what JSON.stringify(jsonDocument(outcome),
// null, 2) prints, but with each destination's part rendered ahead, as its row comes back while the
// scan still reads (scanCommand.ts), so that the end of a large scan is a few joins and writes rather
// than a document of tens of megabytes built and printed after the last batch.

import { rowBodyText, rowText } from '../../shared/scanRowText';
import type { ScannedDestination } from '../service/workspaceScan';
import { documentHead, jsonDocument, type ScanOutcome } from './renderScan';

type RowContext = Pick<ScanOutcome, 'verify' | 'verifiedAt' | 'rowHosts'>;

/**
 * A destination's part as it stands in the document: at depth 2 (four spaces), without the comma
 * after it. Its fields from `path` on come from `row.text` where the reader rendered them
 * (scanWorkspace's `rowText`), else they are rendered here.
 */
export function destinationText(outcome: RowContext, row: ScannedDestination, index: number): string {
  const report = outcome.verify?.[index];
  const body =
    row.text ?? rowBodyText(row.inspection, row.summary, report ? { report, verifiedAt: outcome.verifiedAt?.[index] } : undefined);
  return rowText(row.destination.id, outcome.rowHosts?.[index], body, row.sync);
}

// Rows joined into one piece of the output at a time: the document is never held whole a second
// time, as one string and then as the bytes written.
const ROWS_A_PIECE = 512;

/**
 * The whole document and its newline, in pieces to write one after the other; `rendered[index]`,
 * where given, is that row's destinationText.
 */
export function documentPieces(outcome: ScanOutcome, rendered?: readonly (string | undefined)[]): string[] {
  if (!rendered || outcome.rows.length === 0) return [`${JSON.stringify(jsonDocument(outcome), null, 2)}\n`];
  // `destinations` comes last: the head printed with none ends in `[]\n}`, where the rows go.
  const head = JSON.stringify({ ...documentHead(outcome), destinations: [] }, null, 2).slice(0, -4);
  const pieces = [`${head}[\n`];
  for (let from = 0; from < outcome.rows.length; from += ROWS_A_PIECE) {
    const rows = outcome.rows
      .slice(from, from + ROWS_A_PIECE)
      .map((row, at) => rendered[from + at] ?? destinationText(outcome, row, from + at));
    pieces.push(`${from > 0 ? ',\n' : ''}${rows.join(',\n')}`);
  }
  pieces.push('\n  ]\n}\n');
  return pieces;
}
