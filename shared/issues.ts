// Validation issues: the one shape every parser in the app reports, declared once as zod
// (issueSchema.ts), and the helpers that make and count them. Parsers never throw on bad input;
// they return issues that name the field. No zod at run time: every reader loads this module.

import type { z } from 'zod';
import type { issueSchema, severitySchema } from './issueSchema';

export type Severity = z.infer<typeof severitySchema>;
export type Issue = z.infer<typeof issueSchema>;
export type IssuePath = Issue['path'];

export function error(path: IssuePath, code: string, message: string): Issue {
  return { path, code, message, severity: 'error' };
}

export function warning(path: IssuePath, code: string, message: string): Issue {
  return { path, code, message, severity: 'warning' };
}

export function hasErrors(issues: readonly Issue[]): boolean {
  return issues.some((issue) => issue.severity === 'error');
}

/**
 * How many errors and warnings the issues stand for: a summary issue counts as the issues it stands
 * for, so the counts stay exact when the list is capped.
 */
export function countIssues(issues: readonly Issue[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const issue of issues) {
    const count = issue.omitted?.count ?? 1;
    if (issue.severity === 'error') errors += count;
    else warnings += count;
  }
  return { errors, warnings };
}

/** `outputs[3].path` style, for people; the array form stays the source of truth. */
export function formatIssuePath(path: IssuePath): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) text += text === '' ? key : `.${key}`;
    else text += `[${JSON.stringify(key)}]`;
  }
  return text === '' ? '(document)' : text;
}

/** Document order of two paths: key by key, indexes as numbers (outputs[2] before outputs[10]). */
export function compareIssuePaths(a: IssuePath, b: IssuePath): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const ka = a[i] as string | number;
    const kb = b[i] as string | number;
    if (ka === kb) continue;
    if (typeof ka === 'number' && typeof kb === 'number') return ka - kb;
    // An index and a key cannot meet at one depth of one document; order them anyway, numbers first.
    if (typeof ka !== typeof kb) return typeof ka === 'number' ? -1 : 1;
    return ka < kb ? -1 : 1;
  }
  return a.length - b.length;
}

/** Stable order for display and tests: errors first, then by path; issues at one path keep their order. */
export function sortIssues(issues: Issue[]): Issue[] {
  return issues.sort((a, b) => {
    if (a.severity !== b.severity) return a.severity === 'error' ? -1 : 1;
    return compareIssuePaths(a.path, b.path);
  });
}
