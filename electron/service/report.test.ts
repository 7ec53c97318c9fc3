import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScanEntry } from '../../shared/api';
import { CSV_COLUMNS, csvField, reportCsv, reportJson, type ReportInput } from './report';

/** A reader for RFC 4180, independent of the writer: quoted fields, doubled quotes, CRLF records. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

function input(ids: string[]): ReportInput {
  const scans = new Map<string, ScanEntry>();
  for (const id of ids) {
    scans.set(id, {
      destination: id,
      inspection: {
        path: `/w/${id}`,
        status: 'invalid',
        issues: [{ path: ['x'], code: 'bad_x', message: 'bad', severity: 'error' }],
        hasContent: true,
      },
      summary: { status: 'invalid', destination_id: id, outputCount: 0, errorCount: 1, warningCount: 0 },
    });
  }
  return {
    generatedAt: '2026-12-02T18:00:00.000Z',
    appVersion: '0.1.0',
    workspace: { path: '/w', kind: 'folder', root: '/w' },
    destinations: ids.map((id) => ({ id, path: `/w/${id}`, replacePolicy: 'allow' })),
    scans,
    verifies: new Map(),
  };
}

describe('report', () => {
  it('quotes commas, quotes and line breaks so every field reads back as written', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1, maxLength: 6 }), (ids) => {
        const rows = readCsv(reportCsv(input(ids)));
        expect(rows).toHaveLength(ids.length + 1);
        rows.slice(1).forEach((row, i) => {
          const id = ids[i]!;
          expect(row).toHaveLength(CSV_COLUMNS.length);
          expect(row[0]).toBe(/^[=+\-@\t\r]/.test(id) ? `'${id}` : id);
        });
      }),
    );
  });

  it('neutralises cells a spreadsheet would run as formulas', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('plain')).toBe('plain');
    expect(csvField(undefined)).toBe('');
    expect(csvField(' padded ')).toBe('" padded "');
  });

  it('writes JSON with counts and every destination, scanned or not', () => {
    const data = input(['a']);
    data.destinations.push({ id: 'b', path: '/w/b', replacePolicy: 'allow' });
    const report = JSON.parse(reportJson(data));
    expect(report.counts).toMatchObject({ total: 2, scanned: 1, invalid: 1 });
    expect(report.destinations.map((d: { id: string; status: string | null }) => [d.id, d.status])).toEqual([
      ['a', 'invalid'],
      ['b', null],
    ]);
  });

  it('says in the CSV and the JSON when each verify was taken and whether it is still fresh, and why not', () => {
    const report = { status: 'intact' as const, outputs: [], extra: [] };
    const stamp = { verifiedAt: '2026-12-06T01:00:00.000Z', basis: {} };
    const base = input(['a', 'b', 'c']);
    const verifies: ReportInput['verifies'] = new Map([
      ['a', { report, stamp, freshness: { fresh: true } }],
      ['b', { report, stamp, freshness: { fresh: false, reason: 'changed_on_disk', since: '2026-12-06T01:05:00.000Z' } }],
    ]);
    const rows = readCsv(reportCsv({ ...base, verifies }));
    const column = (name: string) => rows[0]!.indexOf(name);
    const cells = (name: string) => rows.slice(1).map((row) => row[column(name)]);
    expect(cells('verify')).toEqual(['intact', 'stale', '']);
    expect(cells('verified_at')).toEqual([stamp.verifiedAt, stamp.verifiedAt, '']);
    expect(cells('freshness')).toEqual(['fresh', 'stale', '']);
    expect(cells('stale_reason')).toEqual(['', 'changed_on_disk', '']);
    const json = JSON.parse(reportJson({ ...base, verifies }));
    expect(
      json.destinations.map(
        (d: { verify: { verifiedAt: string; fresh: string } | null }) => d.verify && [d.verify.verifiedAt, d.verify.fresh],
      ),
    ).toEqual([[stamp.verifiedAt, 'fresh'], [stamp.verifiedAt, 'stale'], null]);
  });
});
