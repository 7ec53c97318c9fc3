// One row of `scan --json`'s `destinations`, as data and as the text the pretty-printed document
// holds for it (JSON.stringify(document, null, 2), byte for byte). The row is written in two parts:
// its fields from `path` on (the inspection, the summary, the verify report) by whoever read the
// destination, a HashPool worker for a large scan, so that the main thread neither parses nor prints
// a verify report; the `id` and `host` before them and the `sync` after them by the command line.
// Pure: no Node, no zod.

import type { DestinationInspectionData } from './inspection';
import type { SyncStatus } from './syncStatus';
import { NO_SOURCE_SYNC } from './syncNoSource';
import type { ScanSummary, VerifyReport } from './verifyReport';

/** A verify's report and when it was taken, as the row prints them. */
export interface RowVerify {
  report: VerifyReport;
  verifiedAt: string | undefined;
}

/** The row's fields from `path` on, in the document's order: after `id` and `host`, before `sync`. */
export function rowBodyJson(
  inspection: Pick<DestinationInspectionData, 'path' | 'issues' | 'stateWithheld'>,
  summary: ScanSummary,
  verify: RowVerify | undefined,
) {
  return {
    path: inspection.path,
    ...summary,
    issues: inspection.issues,
    ...(inspection.stateWithheld ? { stateWithheld: inspection.stateWithheld } : {}),
    // verified_at and freshness as in the app's export (docs/verify-freshness.md): fresh as of verified_at.
    ...(verify ? { verify: verify.report, verified_at: verify.verifiedAt, freshness: 'fresh' as const } : {}),
  };
}

// Nested in two arrays, an object is printed at a row's depth in the document; cut off the two
// wrappers and the object's own braces (12 characters each side: `[\n  [\n    {\n` and
// `\n    }\n  ]\n]`), what is left is its fields, one a line at six spaces, without a comma after.
const fieldsAtRowDepth = (value: object) => JSON.stringify([[value]], null, 2).slice(12, -12);

/** rowBodyJson's fields as the document prints them inside the row (never empty: `path` is always there). */
export function rowBodyText(...body: Parameters<typeof rowBodyJson>): string {
  return fieldsAtRowDepth(rowBodyJson(...body));
}

// A workspace without sources gives every row the same sync: its words are printed once here rather
// than serialized again for each of 100,000 rows.
const NO_SOURCE_SYNC_FIELD = fieldsAtRowDepth({ sync: NO_SOURCE_SYNC });

/** The whole row as it stands in the document (at four spaces, without the comma after it), around its body's text. */
export function rowText(id: string, host: string | undefined, bodyText: string, sync: SyncStatus | undefined): string {
  const hostField = host !== undefined ? `      "host": ${JSON.stringify(host)},\n` : '';
  const syncField = sync === undefined ? '' : `,\n${sync === NO_SOURCE_SYNC ? NO_SOURCE_SYNC_FIELD : fieldsAtRowDepth({ sync })}`;
  return `    {\n      "id": ${JSON.stringify(id)},\n${hostField}${bodyText}${syncField}\n    }`;
}
