// The contract's rules on how values are written in the JSON text, which JSON.parse cannot see:
// a `size` must be written as a non-negative integer (`12`, not `12.0`, `1e0`, `-0`, `1e-400`,
// `4503599627370497.5`: the publisher decodes it as an integer and would refuse them), and a key
// that appears twice in one object is a warning (the last one wins, as in the publisher's decoder).
// Reads the text through jsonLiterals.ts; never throws.

import { isValidSize } from './fields';
import type { IssueSink } from './issueCap';
import { error, warning, type Issue } from './issues';
import { hasOnlyPlainLiterals, scanJsonLiterals } from './jsonLiterals';

export type DocumentKind = 'state' | 'manifest' | 'other';

type Path = readonly (string | number)[];

/** outputs[i].size and source.manifest.files[i].size in a state; files[i].size in a manifest. */
function isSizePath(kind: DocumentKind, path: Path): boolean {
  const n = path.length;
  if (n < 3 || path[n - 1] !== 'size' || typeof path[n - 2] !== 'number') return false;
  if (kind === 'manifest') return n === 3 && path[0] === 'files';
  if (kind === 'state') {
    if (n === 3) return path[0] === 'outputs';
    return n === 5 && path[0] === 'source' && path[1] === 'manifest' && path[2] === 'files';
  }
  return false;
}

/** At most this many of each are kept from one document; the issue cap (per code) applies after. */
const FINDINGS_KEPT = 1000;

/**
 * The issues of how values are written, into `sink` when given (the ones past the limit only counted there).
 * `json`, what JSON.parse made of `text`, lets a clean text (nearly all of them) pass on a quicker walk.
 */
export function literalIssues(text: string, kind: DocumentKind, sink?: IssueSink, json?: unknown): Issue[] {
  if (json !== undefined && hasOnlyPlainLiterals(text, json)) return [];
  // Only sizes whose value passes the size rule: a size of 1.5 or -1 already has its issue from that rule.
  const found = scanJsonLiterals(text, {
    keepNumber: (path, token) => isSizePath(kind, path) && isValidSize(Number(token)),
    limit: FINDINGS_KEPT,
  });
  const issues: Issue[] = [];
  for (const { path, text: token } of found.notPlainIntegers) {
    issues.push(
      error(
        path,
        'size_not_integer_literal',
        `must be written as a non-negative integer (digits only, like 12), not ${token}: the publisher decodes sizes as integers and would refuse it`,
      ),
    );
  }
  for (const { path, count } of found.duplicateKeys) {
    const key = String(path[path.length - 1]);
    issues.push(
      warning(
        path,
        'duplicate_key',
        `the key ${JSON.stringify(key)} appears ${count === 2 ? 'twice' : `${count} times`} in this object: only the last one counts, as in the publisher's decoder`,
      ),
    );
  }
  if (sink) {
    for (const issue of issues) sink.add(issue);
    // Found but not kept by the scan: counted under the path they all share.
    sink.count(
      'size_not_integer_literal',
      'error',
      found.notPlainIntegerPrefix,
      found.notPlainIntegerCount - found.notPlainIntegers.length,
    );
    sink.count('duplicate_key', 'warning', found.duplicateKeyPrefix, found.duplicateKeyCount - found.duplicateKeys.length);
  }
  return issues;
}
