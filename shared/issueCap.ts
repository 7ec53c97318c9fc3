// The cap on the issues of one document: at most ISSUES_KEPT_PER_CODE issues of each code are kept,
// in the order they are found, and the rest are only counted; each code past the cap gets one
// summary issue ("and 1,799,900 more like this"). A hostile state of millions of bad records then
// costs a few thousand issue objects and a few kilobytes of text, never millions; the counts stay
// exact (countIssues in issues.ts reads them from the summaries). Pure; never throws.

import { formatIssuePath, sortIssues, type Issue, type IssuePath, type Severity } from './issues';

export const ISSUES_KEPT_PER_CODE = 100;

/** The code of a summary issue; `omitted` says which code it stands for and how many. */
export const MORE_LIKE_THIS = 'more_like_this';

/** Where issues go while a document is checked: an IssueCollector, or a plain array (no cap) in tests. */
export interface IssueSink {
  add(issue: Issue): void;
  /** False when an issue of this code would only be counted: the caller may skip building it and call count. */
  wants(code: string, severity: Severity): boolean;
  /** Counts issues of a code without making them; `at` is where they are, as far as the caller knows. */
  count(code: string, severity: Severity, at: IssuePath, howMany?: number): void;
}

interface Tally {
  code: string;
  severity: Severity;
  kept: number;
  omitted: number;
  /** The longest path every omitted issue of this code lies under. */
  under: IssuePath | undefined;
}

function commonPrefix(a: IssuePath, b: IssuePath): IssuePath {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length === a.length ? a : a.slice(0, length);
}

/** 1799900 → "1,799,900", the same in every locale (no Intl). */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function moreLikeThisMessage(code: string, count: number, under: IssuePath, keptPerCode: number): string {
  const where = under.length > 0 ? `, under ${formatIssuePath(under)}` : '';
  return `and ${groupDigits(count)} more like this (${code}${where}): only the first ${groupDigits(keptPerCode)} issues of each code are listed`;
}

export class IssueCollector implements IssueSink {
  private readonly kept: Issue[] = [];
  private readonly tallies = new Map<string, Tally>();

  constructor(private readonly keptPerCode = ISSUES_KEPT_PER_CODE) {}

  private tally(code: string, severity: Severity): Tally {
    const key = `${severity} ${code}`;
    let tally = this.tallies.get(key);
    if (!tally) this.tallies.set(key, (tally = { code, severity, kept: 0, omitted: 0, under: undefined }));
    return tally;
  }

  wants(code: string, severity: Severity): boolean {
    return this.tally(code, severity).kept < this.keptPerCode;
  }

  add(issue: Issue): void {
    const tally = this.tally(issue.code, issue.severity);
    if (tally.kept < this.keptPerCode) {
      this.kept.push(issue);
      tally.kept++;
    } else this.count(issue.code, issue.severity, issue.path);
  }

  addAll(issues: readonly Issue[]): void {
    for (const issue of issues) this.add(issue);
  }

  count(code: string, severity: Severity, at: IssuePath, howMany = 1): void {
    if (howMany <= 0) return;
    const tally = this.tally(code, severity);
    tally.omitted += howMany;
    tally.under = tally.under === undefined ? at.slice() : commonPrefix(tally.under, at);
  }

  /** Whether any error was found, kept or only counted. */
  hasErrors(): boolean {
    for (const tally of this.tallies.values()) if (tally.severity === 'error' && tally.kept + tally.omitted > 0) return true;
    return false;
  }

  /** The kept issues in display order (sortIssues), each code's summary right after its last kept issue. */
  issues(): Issue[] {
    const sorted = sortIssues(this.kept.slice());
    const summaries = [...this.tallies.values()].filter((tally) => tally.omitted > 0);
    if (summaries.length === 0) return sorted;
    const after = new Map<Tally, number>();
    sorted.forEach((issue, index) => {
      const tally = this.tallies.get(`${issue.severity} ${issue.code}`);
      if (tally && tally.omitted > 0) after.set(tally, index);
    });
    const byIndex = new Map<number, Issue[]>();
    for (const tally of summaries) {
      // A code counted but never kept goes at the end of its severity's issues.
      const index = after.get(tally) ?? lastOfSeverity(sorted, tally.severity);
      const list = byIndex.get(index) ?? [];
      list.push(summaryIssue(tally, this.keptPerCode));
      byIndex.set(index, list);
    }
    const result: Issue[] = [...(byIndex.get(-1) ?? [])];
    sorted.forEach((issue, index) => result.push(issue, ...(byIndex.get(index) ?? [])));
    return result;
  }
}

function lastOfSeverity(sorted: readonly Issue[], severity: Severity): number {
  // Errors come first: the last error, or (no error) just before the first warning.
  let last = -1;
  sorted.forEach((issue, index) => {
    if (issue.severity === severity || (severity === 'warning' && issue.severity === 'error')) last = index;
  });
  return last;
}

function summaryIssue(tally: Tally, keptPerCode: number): Issue {
  const under = tally.under ?? [];
  return {
    path: under,
    code: MORE_LIKE_THIS,
    message: moreLikeThisMessage(tally.code, tally.omitted, under, keptPerCode),
    severity: tally.severity,
    omitted: { code: tally.code, count: tally.omitted },
  };
}
