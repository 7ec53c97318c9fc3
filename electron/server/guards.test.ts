import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAllowedFetchSite, isAllowedHost, isAllowedOrigin, tokenMatches } from './guards';

describe('the browser host guards', () => {
  it('accept only our own names and port in Host', () => {
    expect(isAllowedHost('127.0.0.1:4000', 4000)).toBe(true);
    expect(isAllowedHost('LOCALHOST:4000', 4000)).toBe(true);
    for (const host of [
      undefined,
      '',
      '127.0.0.1',
      '127.0.0.1:4001',
      'evil.example:4000',
      '127.0.0.1.evil.example:4000',
      '[::1]:4000',
      '0.0.0.0:4000',
      '127.0.0.1:4000 ',
    ]) {
      expect(isAllowedHost(host, 4000), String(host)).toBe(false);
    }
    fc.assert(fc.property(fc.domain(), (domain) => isAllowedHost(`${domain}:4000`, 4000) === (domain === 'localhost')));
  });

  it('accept a missing Origin (not a browser) or our own, nothing else', () => {
    expect(isAllowedOrigin(undefined, 4000)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:4000', 4000)).toBe(true);
    for (const origin of [
      'null',
      'http://evil.example',
      'https://127.0.0.1:4000',
      'http://127.0.0.1:4001',
      'http://127.0.0.1:4000.evil.example',
    ]) {
      expect(isAllowedOrigin(origin, 4000), origin).toBe(false);
    }
  });

  it('refuse cross-site and same-site fetch metadata', () => {
    expect([undefined, 'same-origin', 'none'].map(isAllowedFetchSite)).toEqual([true, true, true]);
    expect(['cross-site', 'same-site', ''].map(isAllowedFetchSite)).toEqual([false, false, false]);
  });

  it('match the token exactly, whatever its length', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => tokenMatches(a, b) === (a === b)));
    expect(tokenMatches(undefined, 'x')).toBe(false);
  });
});
