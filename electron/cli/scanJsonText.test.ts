import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScannedDestination } from '../service/workspaceScan';
import { NO_SOURCE_SYNC } from '../../shared/syncNoSource';
import type { VerifyReport } from '../../shared/verifyReport';
import { jsonDocument, type ScanOutcome } from './renderScan';
import { destinationText, documentPieces } from './scanJsonText';

const text = fc.string({ unit: 'binary', maxLength: 12 });

const report: fc.Arbitrary<VerifyReport> = fc.record({
  status: fc.constantFrom('intact' as const, 'drifted' as const),
  outputs: fc.array(
    fc.record({
      path: text,
      status: fc.constantFrom('ok' as const, 'missing' as const, 'hash_mismatch' as const),
      expected: fc.record({ sha256: text, size: fc.nat() }),
    }),
    { maxLength: 3 },
  ),
  extra: fc.array(text, { maxLength: 2 }),
});

// The sync every row of a workspace without sources shares (written once), or another of its own.
const sync = fc.option(
  fc.oneof(fc.constant(NO_SOURCE_SYNC), fc.record({ kind: fc.constant('conflict' as const), title: text, sentence: text, reason: text })),
  { nil: undefined },
);

const plainRow: fc.Arbitrary<ScannedDestination> = fc.record({
  destination: fc.record({ id: text, path: text, replacePolicy: fc.constant('allow' as const) }),
  inspection: fc.record({
    path: text,
    status: fc.constantFrom('managed' as const, 'empty' as const, 'invalid' as const),
    issues: fc.array(
      fc.record({
        path: fc.array(fc.oneof(text, fc.nat()), { maxLength: 2 }),
        code: text,
        message: text,
        severity: fc.constant('error' as const),
      }),
      { maxLength: 2 },
    ),
    hasContent: fc.boolean(),
  }),
  summary: fc.record(
    {
      status: fc.constantFrom('managed' as const, 'empty' as const, 'invalid' as const),
      outputCount: fc.nat(),
      errorCount: fc.nat(),
      warningCount: fc.nat(),
      published_at: text,
    },
    { requiredKeys: ['status', 'outputCount', 'errorCount', 'warningCount'] },
  ),
}) as fc.Arbitrary<ScannedDestination>;

const row: fc.Arbitrary<ScannedDestination> = fc
  .tuple(plainRow, sync)
  .map(([entry, rowSync]) => (rowSync ? ({ ...entry, sync: rowSync } as ScannedDestination) : entry));

const outcome: fc.Arbitrary<ScanOutcome> = fc
  .record({
    rows: fc.array(row, { maxLength: 5 }),
    reports: fc.array(fc.option(report, { nil: undefined }), { maxLength: 5 }),
    verifying: fc.boolean(),
    file: fc.option(text, { nil: undefined }),
    // A host scan names each row's host (absent: read on this machine).
    hosts: fc.option(fc.array(fc.option(text, { nil: undefined }), { minLength: 5, maxLength: 5 }), { nil: undefined }),
  })
  .map(({ rows, reports, verifying, file, hosts }) => ({
    workspace: { kind: 'folder' as const, root: '/w', destinations: [], ...(file !== undefined ? { file } : {}) },
    warnings: [],
    rows,
    ...(verifying ? { verify: rows.map((_, index) => reports[index]), verifiedAt: rows.map(() => '2026-12-06T10:00:00.000Z') } : {}),
    ...(hosts ? { rowHosts: hosts } : {}),
  }));

describe('the scan --json document with its rows rendered as they came', () => {
  it('is byte for byte the pretty-printed document, whatever the rows hold', () => {
    fc.assert(
      fc.property(outcome, fc.array(fc.boolean(), { maxLength: 5 }), (scanned, renderedAhead) => {
        // Some rows rendered ahead, the others left to the end: both make the same text.
        const rendered = scanned.rows.map((entry, index) => (renderedAhead[index] ? destinationText(scanned, entry, index) : undefined));
        expect(documentPieces(scanned, rendered).join('')).toBe(`${JSON.stringify(jsonDocument(scanned), null, 2)}\n`);
      }),
    );
  });

  it('joins the rows of a large workspace a piece at a time, each row whole and in order', () => {
    const rows = Array.from({ length: 1200 }, (_, index): ScannedDestination => ({
      destination: { id: `d${index}`, path: `/w/d${index}`, replacePolicy: 'allow' },
      inspection: { path: `/w/d${index}`, status: 'empty', issues: [], hasContent: false },
      summary: { status: 'empty', outputCount: 0, errorCount: 0, warningCount: 0 },
    }));
    const scanned: ScanOutcome = { workspace: { kind: 'folder', root: '/w', destinations: [] }, warnings: [], rows };
    const pieces = documentPieces(
      scanned,
      rows.map((entry, index) => destinationText(scanned, entry, index)),
    );
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(`${JSON.stringify(jsonDocument(scanned), null, 2)}\n`);
  });

  it('prints an empty workspace as the plain document, with its empty list', () => {
    const empty: ScanOutcome = { workspace: { kind: 'folder', root: '/w', destinations: [] }, warnings: [], rows: [] };
    expect(documentPieces(empty, []).join('')).toBe(`${JSON.stringify(jsonDocument(empty), null, 2)}\n`);
    expect(documentPieces(empty, []).join('')).toContain('"destinations": []');
  });
});
