import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSshUrl, parseSshUrl, sameHost } from './sshUrl';

describe('parseSshUrl', () => {
  it('reads user, host, port and an absolute, percent-decoded path', () => {
    expect(parseSshUrl('ssh://deploy@web-1.example:2222/srv/www/a%20b')).toEqual({
      ok: true,
      value: { user: 'deploy', host: 'web-1.example', port: 2222, path: '/srv/www/a b' },
    });
    expect(parseSshUrl('ssh://alias/')).toEqual({ ok: true, value: { host: 'alias', path: '/' } });
    expect(parseSshUrl('ssh://[::1]:22/x/')).toEqual({ ok: true, value: { host: '::1', port: 22, path: '/x' } });
  });

  it.each([
    ['ssh://host', 'absolute path is missing'],
    ['ssh://-oProxyCommand=x/a', 'is not a host name'],
    ['ssh://-x@host/a', 'not a plain user name'],
    ['ssh://host:0/a', 'port'],
    ['ssh://host:65536/a', 'port'],
    ['ssh://host:22x/a', 'port'],
    ['ssh:///a', 'host is missing'],
    ['ssh://host/a/../b', 'no . or .. segment'],
    ['ssh://host/a//b', 'empty segment'],
    ['ssh://host/a%0Ab', 'control character'],
    ['ssh://host/a%zz', 'two hex digits'],
    ['ssh://host/a?b', 'query'],
    ['http://host/a', 'ssh://'],
  ])('refuses %s', (text, why) => {
    const parsed = parseSshUrl(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toContain(why);
  });

  it('never throws, and never gives a host or user that ssh could read as an option (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((rest) => `ssh://${rest}`),
        ),
        (text) => {
          const parsed = parseSshUrl(text);
          if (!parsed.ok) return;
          expect(parsed.value.host.startsWith('-')).toBe(false);
          expect(parsed.value.user?.startsWith('-') ?? false).toBe(false);
          expect(parsed.value.path.startsWith('/')).toBe(true);
        },
      ),
    );
  });

  it('reads back what formatSshUrl writes (property)', () => {
    const segment = fc
      .string({ minLength: 1, maxLength: 8 })
      .filter((text) => !/[\u0000-\u001f\u007f/]/.test(text) && text !== '.' && text !== '..');
    fc.assert(
      fc.property(
        fc.option(fc.stringMatching(/^[a-z_][a-z0-9_-]{0,8}$/), { nil: undefined }),
        fc.stringMatching(/^[a-z0-9]([a-z0-9.-]{0,10}[a-z0-9])?$/),
        fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
        fc.array(segment, { maxLength: 4 }),
        (user, host, port, segments) => {
          const target = {
            ...(user !== undefined ? { user } : {}),
            host,
            ...(port !== undefined ? { port } : {}),
            path: `/${segments.join('/')}`,
          };
          const parsed = parseSshUrl(formatSshUrl(target));
          expect(parsed).toEqual({ ok: true, value: target });
          expect(parsed.ok && sameHost(parsed.value, target)).toBe(true);
        },
      ),
    );
  });
});
