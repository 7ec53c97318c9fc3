import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanPathProblem, cleanPathProblemStepByStep, isCleanRelativePath, matchesCleanPathPattern } from './cleanPath';

// Characters that make paths interesting: separators, dots, drive colons, spaces, controls, non-ASCII.
const pathCharacter = fc.constantFrom(
  'a',
  'b',
  'Z',
  '.',
  '/',
  '\\',
  ':',
  'C',
  ' ',
  '-',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u0085',
  'é',
  '😀',
  '\ud800',
  '\udc00',
);
const pathLike = fc.oneof(
  fc.array(pathCharacter, { maxLength: 12 }).map((chars) => chars.join('')),
  fc
    .array(fc.constantFrom('a', 'b.md', '.', '..', '', '...', '.. ', ' ', 'C:', 'x\\y', 'é'), { maxLength: 5 })
    .map((segments) => segments.join('/')),
  fc.string({ unit: 'binary', maxLength: 16 }),
);

/** Windows drops trailing dots and spaces from each name; model it, so the win32 check is the real one. */
function asWindowsSees(relative: string): string {
  return relative
    .split(/[\\/]/)
    .map((segment) => segment.replace(/[. ]+$/, '') || segment)
    .join('\\');
}

describe('clean relative paths', () => {
  it.each(['report.html', 'pages/a.html', 'a/b/c.txt', '.hidden', 'a/.b', '...a', 'a..', 'x/C:', 'é/😀.md', 'a b/c d'])(
    'accepts %j',
    (candidate) => {
      expect(cleanPathProblem(candidate)).toBeNull();
      expect(isCleanRelativePath(candidate)).toBe(true);
    },
  );

  it.each([
    ['', 'is empty'],
    ['./a', '"." segment'],
    ['a/.', '"." segment'],
    ['../a', '".." segment'],
    ['a/../b', '".." segment'],
    ['..', '".." segment'],
    ['/a', 'absolute'],
    ['a/', 'ends with "/"'],
    ['a//b', 'empty segment'],
    ['a\\b', '"\\"'],
    ['C:', 'drive letter'],
    ['c:/x', 'drive letter'],
    ['C:x', 'drive letter'],
    ['a\u0000b', 'control character'],
    ['a\nb', 'control character'],
    ['a\u007f', 'control character'],
    ['a\u0085', 'control character'],
    ['a\ud800b', 'lone UTF-16 surrogate'],
    ['...', 'only dots and spaces'],
    ['a/.. /b', 'only dots and spaces'],
    [' ', 'only dots and spaces'],
  ])('refuses %j because it %s', (candidate, because) => {
    expect(cleanPathProblem(candidate)).toContain(because);
    expect(isCleanRelativePath(candidate)).toBe(false);
  });

  it('never lets an accepted path resolve outside its root, on POSIX or Windows', () => {
    let accepted = 0;
    fc.assert(
      fc.property(pathLike, (candidate) => {
        if (!isCleanRelativePath(candidate)) return;
        accepted++;
        const posix = path.posix.resolve('/srv/root', candidate);
        expect(posix.startsWith('/srv/root/')).toBe(true);
        expect(path.posix.relative('/srv/root', posix).split('/')).not.toContain('..');
        const windows = path.win32.resolve('C:\\srv\\root', asWindowsSees(candidate));
        expect(windows.toLowerCase().startsWith('c:\\srv\\root\\')).toBe(true);
        expect(path.win32.relative('C:\\srv\\root', windows).split('\\')).not.toContain('..');
      }),
      { numRuns: 3000 },
    );
    // Accepted paths are a good share of the runs, so the property is not held by refusals alone.
    expect(accepted).toBeGreaterThan(300);
  });

  it('refuses every path with "..", "/" at the start, "\\", a drive, an empty or "." segment, or NUL', () => {
    let forbiddenSeen = 0;
    fc.assert(
      fc.property(pathLike, (candidate) => {
        const segments = candidate.split('/');
        const forbidden =
          candidate === '' ||
          candidate.startsWith('/') ||
          candidate.includes('\\') ||
          /^[A-Za-z]:/.test(candidate) ||
          candidate.includes('\u0000') ||
          segments.some((segment) => segment === '' || segment === '.' || segment === '..');
        forbiddenSeen += Number(forbidden);
        expect(forbidden && isCleanRelativePath(candidate), candidate).toBe(false);
      }),
      { numRuns: 3000 },
    );
    // The generator reaches the forbidden shapes often enough for the property to mean something.
    expect(forbiddenSeen).toBeGreaterThan(300);
  });

  it('has a fast pattern that agrees with the step-by-step checks on every input', () => {
    fc.assert(
      fc.property(pathLike, (candidate) => {
        expect(matchesCleanPathPattern(candidate)).toBe(cleanPathProblemStepByStep(candidate) === null);
      }),
      { numRuns: 5000 },
    );
  });

  it('always names a specific reason when it refuses', () => {
    let refused = 0;
    fc.assert(
      fc.property(pathLike, (candidate) => {
        const problem = cleanPathProblem(candidate);
        refused += Number(problem !== null);
        expect(problem).not.toBe('is not a clean relative path');
      }),
      { numRuns: 2000 },
    );
    expect(refused).toBeGreaterThan(200);
  });
});
