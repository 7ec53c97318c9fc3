import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveUserPath } from './userPath';

const posix = { base: '/srv/publish', home: '/home/operator', pathApi: path.posix };
const win32 = { base: 'D:\\publish', home: 'C:\\Users\\operator', pathApi: path.win32 };

/** Path-ish text: segments of letters, dots, tildes and spaces, joined by separators. */
const segment = fc.stringMatching(/^[a-z.~ -]{1,6}$/);
const typedPath = (separator: string) =>
  fc
    .tuple(fc.constantFrom('', separator, '~', '~' + separator, '.' + separator, '..' + separator), fc.array(segment, { maxLength: 5 }))
    .map(([start, segments]) => start + segments.join(separator))
    .filter((text) => text.trim() !== '');

const value = (typed: string, base = posix) => {
  const resolved = resolveUserPath(typed, base);
  if (!resolved.ok) throw new Error(`${typed}: ${resolved.error}`);
  return resolved.value;
};

describe('resolveUserPath', () => {
  it('reads a relative path from the workspace folder, never from the working directory', () => {
    expect(value('sources/handbook-2026-05')).toBe('/srv/publish/sources/handbook-2026-05');
    expect(value('../bundles/reports/')).toBe('/srv/bundles/reports');
    expect(value('./a/./b')).toBe('/srv/publish/a/b');
    expect(value('sources').startsWith(process.cwd() + '/') && process.cwd() !== '/srv/publish').toBe(false);
  });

  it('expands ~ and ~/ to the home of the user running the engine', () => {
    expect(value('~')).toBe('/home/operator');
    expect(value('~/')).toBe('/home/operator');
    expect(value('~/bundles/v1')).toBe('/home/operator/bundles/v1');
  });

  it('keeps an absolute path as typed, normalised', () => {
    expect(value('/srv/other//bundle/')).toBe('/srv/other/bundle');
  });

  it("refuses ~name (another user's home) with the way to name a folder called that", () => {
    const resolved = resolveUserPath('~alice/bundles', posix);
    expect(resolved).toEqual({ ok: false, error: expect.stringContaining('"~alice"') });
    expect(!resolved.ok && resolved.error).toContain('./~alice/bundles');
    expect(value('./~alice/bundles')).toBe('/srv/publish/~alice/bundles');
  });

  it('refuses an empty path and one holding NUL', () => {
    expect(resolveUserPath('', posix)).toMatchObject({ ok: false, error: expect.stringContaining('empty') });
    expect(resolveUserPath('a\u0000b', posix)).toMatchObject({ ok: false, error: expect.stringContaining('NUL') });
  });

  it('follows the platform: on Windows a drive, a UNC share and ~\\ are understood', () => {
    expect(value('sources\\v1', win32)).toBe('D:\\publish\\sources\\v1');
    expect(value('~\\bundles', win32)).toBe('C:\\Users\\operator\\bundles');
    expect(value('E:\\x', win32)).toBe('E:\\x');
    expect(value('\\\\server\\share\\b', win32)).toBe('\\\\server\\share\\b');
  });

  for (const [name, base, separator] of [
    ['posix', posix, '/'],
    ['win32', win32, '\\'],
  ] as const) {
    describe(`properties (${name})`, () => {
      it('answers an absolute path or a sentence for any input, never throws', () => {
        fc.assert(
          fc.property(fc.string(), (typed) => {
            const resolved = resolveUserPath(typed, base);
            if (resolved.ok) expect(base.pathApi.isAbsolute(resolved.value)).toBe(true);
            else expect(resolved.error.length).toBeGreaterThan(0);
          }),
        );
      });

      it('is idempotent: the answer resolved again, against any base, is the same', () => {
        fc.assert(
          fc.property(typedPath(separator), typedPath(separator), (typed, otherBase) => {
            const first = resolveUserPath(typed, base);
            if (!first.ok) return;
            const again = resolveUserPath(first.value, { ...base, base: base.pathApi.resolve(base.base, otherBase.replace(/^~/, 'x')) });
            expect(again).toEqual(first);
          }),
        );
      });

      it('puts a relative path without .. under the workspace folder, and ~/… under the home', () => {
        fc.assert(
          fc.property(
            fc.array(
              segment.filter((s) => s !== '..' && !s.startsWith('~')),
              { minLength: 1, maxLength: 5 },
            ),
            (segments) => {
              const relative = segments.join(separator);
              const resolved = value(relative, base);
              expect(resolved === base.base || resolved.startsWith(base.base + base.pathApi.sep)).toBe(true);
              const underHome = value(`~${separator}${relative}`, base);
              expect(underHome === base.home || underHome.startsWith(base.home + base.pathApi.sep)).toBe(true);
            },
          ),
        );
      });

      it('leaves an absolute path alone whatever the base', () => {
        fc.assert(
          fc.property(typedPath(separator), (typed) => {
            const absolute = resolveUserPath(typed, base);
            if (!absolute.ok) return;
            const elsewhere = { ...base, base: base.pathApi.resolve(base.base, 'elsewhere', 'deeper') };
            expect(resolveUserPath(absolute.value, elsewhere)).toEqual(absolute);
          }),
        );
      });
    });
  }
});
