// Validation issues and results: the one shape every parser in the app returns.
// Parsers never throw on bad input; they return issues that name the field.

export type IssuePath = (string | number)[];
export type Severity = 'error' | 'warning';

export interface Issue {
  /** Where in the document, as zod gives it: keys and array indexes. */
  path: IssuePath;
  code: string;
  message: string;
  severity: Severity;
}

export type Result<T> = { ok: true; value: T; issues: Issue[] } | { ok: false; issues: Issue[] };

export function error(path: IssuePath, code: string, message: string): Issue {
  return { path, code, message, severity: 'error' };
}

export function warning(path: IssuePath, code: string, message: string): Issue {
  return { path, code, message, severity: 'warning' };
}

export function hasErrors(issues: readonly Issue[]): boolean {
  return issues.some((issue) => issue.severity === 'error');
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

/** Stable order for display and tests: errors first, then by path. */
export function sortIssues(issues: Issue[]): Issue[] {
  return issues.sort((a, b) => {
    if (a.severity !== b.severity) return a.severity === 'error' ? -1 : 1;
    const pa = formatIssuePath(a.path);
    const pb = formatIssuePath(b.path);
    return pa < pb ? -1 : pa > pb ? 1 : 0;
  });
}
