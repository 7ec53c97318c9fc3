// The clean relative path rule of CONTRACT.md, as one function.
// An accepted path, joined to any root, can never name anything outside that root.

// Control characters are Unicode's Cc: C0, DEL and C1. A lone surrogate is no character at all:
// it cannot be written as UTF-8, so two different such paths would land on one file name.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const DRIVE_LETTER = /^[A-Za-z]:/;

// The whole rule as one expression, for the hot path (50,000 outputs per state file);
// cleanPathProblem below says which part failed, and the property tests hold the two together.
// With the u flag, a surrogate pair is one code point outside \ud800-\udfff, so only lone ones fail.
// A segment of dots and spaces only is refused beyond "." and "..": Windows strips trailing dots
// and spaces from a name, so "..." or ".. " would mean "." or ".." there.
const CLEAN_PATH =
  /^(?![A-Za-z]:)(?![. ]*(?:\/|$))[^/\\\u0000-\u001f\u007f-\u009f\ud800-\udfff]+(?:\/(?![. ]*(?:\/|$))[^/\\\u0000-\u001f\u007f-\u009f\ud800-\udfff]+)*$/u;
const DOTS_AND_SPACES = /^[. ]+$/;

/** The one-expression form of the rule; exported so the tests can hold it to the step-by-step checks. */
export function matchesCleanPathPattern(path: string): boolean {
  return CLEAN_PATH.test(path);
}

/** Why a path is not clean, step by step, or null when it is. Never consults the fast pattern. */
export function cleanPathProblemStepByStep(path: string): string | null {
  if (path === '') return 'is empty';
  if (CONTROL_CHARACTER.test(path)) return 'contains a NUL or other control character';
  if (LONE_SURROGATE.test(path)) return 'contains a lone UTF-16 surrogate, which no file name can hold';
  if (path.includes('\\')) return 'uses "\\" as a separator; only "/" is allowed';
  if (path.startsWith('/')) return 'is absolute (starts with "/")';
  if (DRIVE_LETTER.test(path)) return 'starts with a drive letter';
  if (path.endsWith('/')) return 'ends with "/"';
  for (const segment of path.split('/')) {
    if (segment === '') return 'has an empty segment ("//")';
    if (segment === '.') return 'has a "." segment';
    if (segment === '..') return 'has a ".." segment';
    if (DOTS_AND_SPACES.test(segment)) return `has the segment "${segment}", only dots and spaces, which Windows reads as "." or ".."`;
  }
  return null;
}

/** Why a path is not clean, or null when it is. */
export function cleanPathProblem(path: string): string | null {
  if (CLEAN_PATH.test(path)) return null;
  // The step-by-step checks always find a reason when the pattern refuses; the property tests pin that.
  return cleanPathProblemStepByStep(path) ?? 'is not a clean relative path';
}

export function isCleanRelativePath(path: string): boolean {
  return CLEAN_PATH.test(path);
}
