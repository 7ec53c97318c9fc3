import { describe, expect, it } from 'vitest';
import { compareIssuePaths, error, formatIssuePath, hasErrors, sortIssues, warning } from './issues';

describe('issues', () => {
  it('formats a path for people, quoting keys that are not identifiers', () => {
    expect(formatIssuePath([])).toBe('(document)');
    expect(formatIssuePath(['outputs', 3, 'path'])).toBe('outputs[3].path');
    expect(formatIssuePath(['source', 'manifest', 'files', 0, 'sha256'])).toBe('source.manifest.files[0].sha256');
    expect(formatIssuePath(['links', 'primary-url'])).toBe('links["primary-url"]');
  });

  it('orders errors before warnings, then paths in document order with indexes as numbers', () => {
    const issues = [
      warning(['a'], 'w', ''),
      error(['outputs', 10, 'size'], 'e', ''),
      error(['outputs', 2, 'size'], 'e', ''),
      error(['outputs', 2], 'e', ''),
      error([], 'e', ''),
    ];
    expect(sortIssues(issues).map((issue) => [issue.severity, formatIssuePath(issue.path)])).toEqual([
      ['error', '(document)'],
      ['error', 'outputs[2]'],
      ['error', 'outputs[2].size'],
      ['error', 'outputs[10].size'],
      ['warning', 'a'],
    ]);
  });

  it('compares paths like a sort comparator', () => {
    expect(compareIssuePaths(['outputs', 2], ['outputs', 10])).toBeLessThan(0);
    expect(compareIssuePaths(['b'], ['a', 1])).toBeGreaterThan(0);
    expect(compareIssuePaths(['a'], ['a'])).toBe(0);
  });

  it('tells whether any issue is an error', () => {
    expect(hasErrors([warning([], 'w', 'x')])).toBe(false);
    expect(hasErrors([warning([], 'w', 'x'), error([], 'e', 'y')])).toBe(true);
  });
});
