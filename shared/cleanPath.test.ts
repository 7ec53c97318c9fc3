import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cleanPathProblem,
  cleanPathProblemStepByStep,
  isCleanRelativePath,
  isPlainPortablePath,
  matchesCleanPathPattern,
  matchesNotPortablePattern,
  portabilityProblem,
  portabilityProblemStepByStep,
} from './cleanPath';
import { foldCase } from './documentRules';

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
  '*',
  '?',
  'N',
  'U',
  'L',
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
    .array(fc.constantFrom('a', 'b.md', '.', '..', '', '...', '.. ', ' ', 'a.', 'a ', '. .', 'C:', 'x\\y', 'é', 'nul', 'Com1.txt', 'a|b'), {
      maxLength: 5,
    })
    .map((segments) => segments.join('/')),
  fc.string({ unit: 'binary', maxLength: 16 }),
);

/** Windows drops trailing dots and spaces from names; model it for every name, so the win32 check is the real one. */
function asWindowsSees(relative: string): string {
  return relative
    .split(/[\\/]/)
    .map((segment) => segment.replace(/[. ]+$/, ''))
    .join('\\');
}

describe('clean relative paths', () => {
  it.each([
    'report.html',
    'pages/a.html',
    'a/b/c.txt',
    '.hidden',
    'a/.b',
    '...a',
    'a..',
    'x/C:',
    'é/😀.md',
    'a b/c d',
    // The contract's own examples: clean, with at most a portability warning.
    'notes/.../report.html',
    'docs/ /report.html',
    '...',
    ' ',
    'a./b',
    'a /b',
    '.. /b',
  ])('accepts %j', (candidate) => {
    expect(cleanPathProblem(candidate)).toBeNull();
    expect(isCleanRelativePath(candidate)).toBe(true);
  });

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
  ])('refuses %j because it %s', (candidate, because) => {
    expect(cleanPathProblem(candidate)).toContain(because);
    expect(isCleanRelativePath(candidate)).toBe(false);
  });

  it('never lets an accepted path resolve outside its root on POSIX, nor on Windows unless it is warned not portable', () => {
    let accepted = 0;
    fc.assert(
      fc.property(pathLike, (candidate) => {
        if (!isCleanRelativePath(candidate)) return;
        accepted++;
        const posix = path.posix.resolve('/srv/root', candidate);
        expect(posix.startsWith('/srv/root/')).toBe(true);
        expect(path.posix.relative('/srv/root', posix).split('/')).not.toContain('..');
        if (portabilityProblem(candidate) !== null) return;
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

describe('Windows portability of a clean path: a warning, never a refusal', () => {
  it.each([
    ['notes/.../report.html', 'ends with a dot'],
    ['docs/ /report.html', 'ends with a space'],
    ['a./b', 'ends with a dot'],
    ['a /b', 'ends with a space'],
    ['...', 'ends with a dot'],
    [' ', 'ends with a space'],
    ['x/a.', 'ends with a dot'],
    ['a|b.txt', 'the character "|"'],
    ['x/C:', 'the character ":"'],
    ['nul', 'device name'],
    ['pages/COM1.txt', 'device name'],
    ['Lpt9', 'device name'],
  ])('warns about %j: it %s', (candidate, because) => {
    expect(isCleanRelativePath(candidate)).toBe(true);
    expect(portabilityProblem(candidate)).toContain(because);
  });

  it.each(['report.html', '...a', 'a..b', '.hidden', 'a b/c d', 'console.txt', 'com10', 'nul-report', 'é/😀.md'])(
    'has nothing to say about %j',
    (candidate) => expect(portabilityProblem(candidate)).toBeNull(),
  );

  it('has a fast pattern that agrees with the step-by-step checks on every clean input', () => {
    fc.assert(
      fc.property(pathLike, (candidate) => {
        fc.pre(isCleanRelativePath(candidate));
        expect(matchesNotPortablePattern(candidate)).toBe(portabilityProblemStepByStep(candidate) !== null);
      }),
      { numRuns: 5000 },
    );
  });

  it('is applied the same way to every segment: a name that ends with a dot or a space, wherever it is', () => {
    const name = fc.stringMatching(/^[a. ]{1,4}$/).filter((segment) => segment !== '.' && segment !== '..');
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 4 }), (segments) => {
        const candidate = segments.join('/');
        expect(isCleanRelativePath(candidate)).toBe(true);
        const trailing = segments.some((segment) => segment.endsWith('.') || segment.endsWith(' '));
        expect(portabilityProblem(candidate) !== null).toBe(trailing);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("the plain portable path of the scan's quick proof", () => {
  // Near misses of the usual path: device names, dots, case, separators, what Windows refuses.
  const nearPlain = fc.oneof(
    fc
      .array(fc.constantFrom('a', 'c', 'o', 'n', 'm', '1', '0', 'l', 'p', 't', 'x', '.', '/', '-', '_', '~', 'A', ' ', ':', 'é', '\\'), {
        maxLength: 14,
      })
      .map((chars) => chars.join('')),
    fc
      .array(
        fc.constantFrom(
          'con',
          'con.txt',
          'CON',
          'com1',
          'com0',
          'lpt9.a.b',
          'console',
          'a.',
          '.a',
          '.',
          '..',
          '...',
          '',
          'page-0.html',
          'x~',
        ),
        {
          maxLength: 4,
        },
      )
      .map((segments) => segments.join('/')),
    pathLike,
  );

  it('is clean, survives Windows and is its own case-folded form whenever it matches', () => {
    let matched = 0;
    fc.assert(
      fc.property(nearPlain, (candidate) => {
        if (!isPlainPortablePath(candidate)) return;
        matched++;
        expect(isCleanRelativePath(candidate), candidate).toBe(true);
        expect(portabilityProblem(candidate), candidate).toBeNull();
        expect(portabilityProblemStepByStep(candidate), candidate).toBeNull();
        expect(foldCase(candidate), candidate).toBe(candidate);
      }),
      { numRuns: 5000 },
    );
    expect(matched).toBeGreaterThan(200);
  });

  it.each(['index.html', 'pages/page-0.html', '.well-known/x_y~z', 'console/con-x.html', 'com0.txt'])(
    'takes the usual path %s',
    (usual) => {
      expect(isPlainPortablePath(usual)).toBe(true);
    },
  );

  it.each(['con', 'pages/aux.html', 'LPT1', 'a.', 'a/./b', 'Report.html', 'a b', 'é.html', 'a//b', '/a', 'a/'])(
    'leaves %j to the full rules',
    (other) => {
      expect(isPlainPortablePath(other)).toBe(false);
    },
  );
});
