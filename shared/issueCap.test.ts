import { describe, expect, it } from 'vitest';
import { groupDigits, IssueCollector, ISSUES_KEPT_PER_CODE, MORE_LIKE_THIS } from './issueCap';
import { countIssues, error, warning } from './issues';

describe('IssueCollector', () => {
  it('keeps the first 100 issues of a code, then one summary with the exact count of the rest', () => {
    const collector = new IssueCollector();
    for (let i = 0; i < 1_800_000; i++) {
      if (collector.wants('invalid_sha256', 'error')) collector.add(error(['outputs', i, 'sha256'], 'invalid_sha256', 'bad'));
      else collector.count('invalid_sha256', 'error', ['outputs', i, 'sha256']);
    }
    const issues = collector.issues();
    expect(issues).toHaveLength(ISSUES_KEPT_PER_CODE + 1);
    expect(issues[99]!.path).toEqual(['outputs', 99, 'sha256']);
    expect(issues[100]).toEqual({
      path: ['outputs'],
      code: MORE_LIKE_THIS,
      severity: 'error',
      message: 'and 1,799,900 more like this (invalid_sha256, under outputs): only the first 100 issues of each code are listed',
      omitted: { code: 'invalid_sha256', count: 1_799_900 },
    });
    expect(countIssues(issues)).toEqual({ errors: 1_800_000, warnings: 0 });
  });

  it('caps each code on its own and puts each summary right after the last issue of its code', () => {
    const collector = new IssueCollector(2);
    for (let i = 0; i < 5; i++) {
      collector.add(error(['outputs', i, 'size'], 'negative_size', 'm'));
      collector.add(warning(['outputs', i, 'x'], 'unknown_field', 'm'));
    }
    collector.add(error(['pipeline_id'], 'missing_field', 'm'));
    expect(collector.issues().map((issue) => [issue.severity, issue.code, issue.omitted?.count])).toEqual([
      ['error', 'negative_size', undefined],
      ['error', 'negative_size', undefined],
      ['error', MORE_LIKE_THIS, 3],
      ['error', 'missing_field', undefined],
      ['warning', 'unknown_field', undefined],
      ['warning', 'unknown_field', undefined],
      ['warning', MORE_LIKE_THIS, 3],
    ]);
    expect(collector.hasErrors()).toBe(true);
  });

  it('counts issues it never saw, at the longest path they share', () => {
    const collector = new IssueCollector(0);
    collector.count('invalid_type', 'error', ['source', 'manifest', 'files', 3, 'path']);
    collector.count('invalid_type', 'error', ['source', 'manifest', 'files', 7], 4);
    const [summary] = collector.issues();
    expect(summary).toMatchObject({ path: ['source', 'manifest', 'files'], omitted: { code: 'invalid_type', count: 5 } });
    expect(collector.hasErrors()).toBe(true);
  });

  it('groups digits the same in every locale', () => {
    expect([0, 999, 1000, 1_799_900, 12_345_678].map(groupDigits)).toEqual(['0', '999', '1,000', '1,799,900', '12,345,678']);
  });
});
