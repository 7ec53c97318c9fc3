// The clean relative path rule of CONTRACT.md, as one function, and the Windows portability warning.
// An accepted path, joined to any root, can never name anything outside that root on POSIX; on
// Windows also when it has no portability warning (Windows drops a name's trailing dots and spaces,
// so a last segment ".. " would mean ".."). Portability is only ever a warning, never a refusal:
// the contract allows `...`, ` `, `a.` and `a `.

// Control characters are Unicode's Cc: C0, DEL and C1. A lone surrogate is no character at all:
// it cannot be written as UTF-8, so two different such paths would land on one file name.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const DRIVE_LETTER = /^[A-Za-z]:/;

// The whole rule as one expression, for the hot path (50,000 outputs per state file);
// cleanPathProblem below says which part failed, and the property tests hold the two together.
// With the u flag, a surrogate pair is one code point outside \ud800-\udfff, so only lone ones fail.
// Only the segments "." and ".." are refused; "...", " " and ".. " are names like any other.
const CLEAN_PATH =
  /^(?![A-Za-z]:)(?!\.\.?(?:\/|$))[^/\\\u0000-\u001f\u007f-\u009f\ud800-\udfff]+(?:\/(?!\.\.?(?:\/|$))[^/\\\u0000-\u001f\u007f-\u009f\ud800-\udfff]+)*$/u;

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

// Windows portability, for a path that is clean. Windows drops the trailing dots and spaces of a name,
// refuses the characters < > : " | ? * in one, and keeps the device names CON, PRN, AUX, NUL,
// COM1-9 and LPT1-9 (with any extension, in any case) for itself.
const WINDOWS_RESERVED_CHARACTER = /[<>:"|?*]/;
const WINDOWS_DEVICE_NAME = /^(?:CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])(?:\..*)?$/i;
// The same three rules as one expression, for the hot path; the property tests hold it to the steps.
const NOT_PORTABLE = /[. ](?:\/|$)|[<>:"|?*]|(?:^|\/)(?:CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])(?:\.[^/]*)?(?:\/|$)/i;

/** Why a clean path does not survive Windows, step by step, or null. Never consults the fast pattern. */
export function portabilityProblemStepByStep(path: string): string | null {
  for (const segment of path.split('/')) {
    if (segment.endsWith('.') || segment.endsWith(' '))
      return `has the name ${JSON.stringify(segment)}, which ends with a ${segment.endsWith('.') ? 'dot' : 'space'}: Windows drops trailing dots and spaces, so it would name another file there`;
    const reserved = WINDOWS_RESERVED_CHARACTER.exec(segment);
    if (reserved)
      return `has the name ${JSON.stringify(segment)}, with the character "${reserved[0]}", which Windows does not allow in a name`;
    if (WINDOWS_DEVICE_NAME.test(segment)) return `has the name ${JSON.stringify(segment)}, a device name Windows keeps for itself`;
  }
  return null;
}

/** True when the fast pattern finds a portability problem; exported for the property tests. */
export function matchesNotPortablePattern(path: string): boolean {
  return NOT_PORTABLE.test(path);
}

/** Why a clean path does not survive Windows, or null (most paths: one regex test). */
export function portabilityProblem(path: string): string | null {
  if (!NOT_PORTABLE.test(path)) return null;
  return portabilityProblemStepByStep(path) ?? 'does not survive Windows';
}

// The usual path, as one expression for the scan's quick proof (cleanState.ts): segments of lowercase
// ASCII letters, digits and `._~-`, none ending with a dot and none a Windows device name. Such a path
// is clean, has no portability problem, and is its own case-folded form (no two such paths collide
// but by being equal); the property tests hold it to those three rules. Anything else is not
// refused: it only goes the long way.
const SEGMENT = '(?!(?:con|prn|aux|nul|com[1-9]|lpt[1-9])(?:[./]|$))[a-z0-9._~-]*[a-z0-9_~-]';
const PLAIN_PORTABLE_PATH = new RegExp(`^${SEGMENT}(?:/${SEGMENT})*$`);

/** True only for a clean, portable path of lowercase ASCII (see above); false says nothing. */
export function isPlainPortablePath(path: string): boolean {
  return PLAIN_PORTABLE_PATH.test(path);
}
