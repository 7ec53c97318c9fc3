// The clean relative path rule of CONTRACT.md, as one function.
// An accepted path, joined to any root, can never name anything outside that root.

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
const DRIVE_LETTER = /^[A-Za-z]:/;

// The whole rule as one expression, for the hot path (50,000 outputs per state file);
// cleanPathProblem below says which part failed, and the property tests hold the two together.
const CLEAN_PATH = /^(?![A-Za-z]:)(?!\.\.?(?:\/|$))[^/\\\u0000-\u001f\u007f]+(?:\/(?!\.\.?(?:\/|$))[^/\\\u0000-\u001f\u007f]+)*$/;

/** Why a path is not clean, or null when it is. */
export function cleanPathProblem(path: string): string | null {
  if (CLEAN_PATH.test(path)) return null;
  if (path === '') return 'is empty';
  if (CONTROL_CHARACTER.test(path)) return 'contains a NUL or control character';
  if (path.includes('\\')) return 'uses "\\" as a separator; only "/" is allowed';
  if (path.startsWith('/')) return 'is absolute (starts with "/")';
  if (DRIVE_LETTER.test(path)) return 'starts with a drive letter';
  if (path.endsWith('/')) return 'ends with "/"';
  for (const segment of path.split('/')) {
    if (segment === '') return 'has an empty segment ("//")';
    if (segment === '.') return 'has a "." segment';
    if (segment === '..') return 'has a ".." segment';
  }
  // Unreachable while CLEAN_PATH and the checks above agree; the property tests pin that.
  return 'is not a clean relative path';
}

export function isCleanRelativePath(path: string): boolean {
  return cleanPathProblem(path) === null;
}
