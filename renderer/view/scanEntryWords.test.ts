import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScanEntry } from '../../shared/api';
import { scanEntryKeeper } from './scanEntryWords';

const STATUSES = ['managed', 'unmanaged', 'empty', 'invalid'] as const;
const syncArb = fc.record(
  {
    kind: fc.constantFrom('up_to_date', 'publish_waiting', 'conflict', 'no_source'),
    decision: fc.constantFrom('skip', 'replace', 'refuse'),
    reason: fc.constantFrom('digest_mismatch', 'invalid_state'),
    title: fc.constantFrom('Up to date', 'Conflict: digest mismatch', ''),
    sentence: fc.string(),
  },
  { requiredKeys: ['kind', 'title', 'sentence'] },
) as fc.Arbitrary<NonNullable<ScanEntry['sync']>>;
const issueArb = fc.record({
  path: fc.array(fc.oneof(fc.string(), fc.nat())),
  code: fc.string(),
  message: fc.string(),
  severity: fc.constantFrom('error', 'warning'),
}) as fc.Arbitrary<ScanEntry['inspection']['issues'][number]>;
const entryArb: fc.Arbitrary<ScanEntry> = fc
  .record({
    destination: fc.string({ minLength: 1 }),
    status: fc.constantFrom(...STATUSES),
    issues: fc.array(issueArb, { maxLength: 2 }),
    stateSha256: fc.option(fc.string(), { nil: undefined }),
    listingDigest: fc.option(fc.string(), { nil: undefined }),
    pipelineId: fc.option(fc.constantFrom('handbook', 'site-build', ''), { nil: undefined }),
    publishedAt: fc.option(fc.constantFrom('2026-06-01T10:15:00Z', 'not a time'), { nil: undefined }),
    sync: fc.option(syncArb, { nil: undefined }),
  })
  .map(({ destination, status, issues, stateSha256, listingDigest, pipelineId, publishedAt, sync }) => ({
    destination,
    inspection: {
      path: `/w/${destination}`,
      status,
      issues,
      hasContent: status !== 'empty',
      ...(stateSha256 !== undefined ? { stateSha256 } : {}),
      ...(listingDigest !== undefined ? { listingDigest } : {}),
    },
    summary: {
      status,
      outputCount: 1,
      errorCount: issues.length,
      warningCount: 0,
      ...(pipelineId !== undefined ? { pipeline_id: pipelineId } : {}),
      ...(publishedAt !== undefined ? { published_at: publishedAt } : {}),
    },
    ...(sync ? { sync } : {}),
  }));

describe('scan rows as the list keeps them', () => {
  it('keeps every row equal to the row given, field for field, whatever came before it', () => {
    fc.assert(
      fc.property(fc.array(entryArb, { maxLength: 30 }), (entries) => {
        const keep = scanEntryKeeper();
        for (const entry of entries) expect(keep(entry)).toStrictEqual(entry);
      }),
    );
  });

  it('shares one sync decision, one empty issues list and one copy of each repeated word between rows', () => {
    const keep = scanEntryKeeper();
    const row = (id: string): ScanEntry => ({
      destination: id,
      inspection: { path: `/w/${id}`, status: 'managed', issues: [], hasContent: true },
      summary: { status: 'managed', outputCount: 1, errorCount: 0, warningCount: 0, pipeline_id: ['site', 'build'].join('-') },
      sync: { kind: 'up_to_date', decision: 'skip', title: 'Up to date', sentence: ['The destination', 'holds this source.'].join(' ') },
    });
    const [a, b] = [keep(row('a')), keep(row('b'))];
    expect(b.sync).toBe(a.sync);
    expect(b.inspection.issues).toBe(a.inspection.issues);
    expect(Object.isFrozen(b.inspection.issues)).toBe(true);
    expect(b.summary.pipeline_id).toBe(a.summary.pipeline_id);
    // A row with issues keeps its own.
    const withIssue = row('c');
    withIssue.inspection.issues.push({ path: [], code: 'interrupted_replace', message: 'left', severity: 'warning' });
    expect(keep(withIssue).inspection.issues).toBe(withIssue.inspection.issues);
  });
});
