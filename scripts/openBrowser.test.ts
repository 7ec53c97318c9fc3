// `npm start`'s decision to open the browser host's address, and the words it prints around it.
import { describe, expect, it } from 'vitest';
import { addressIn, addressLine, browserOpener, fallbackReason } from './openBrowser.mjs';

const url = 'http://127.0.0.1:41234/?token=abc';

describe('browserOpener', () => {
  it('opens with xdg-open on Linux when there is a display', () => {
    expect(browserOpener(url, { DISPLAY: ':0' }, 'linux')).toEqual({ open: true, command: 'xdg-open', args: [url] });
    expect(browserOpener(url, { WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toMatchObject({ open: true });
  });

  it('does not open on Linux without DISPLAY or WAYLAND_DISPLAY', () => {
    expect(browserOpener(url, {}, 'linux')).toEqual({ open: false, reason: 'there is no display' });
  });

  it('never opens when CI is set, on any platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const)
      expect(browserOpener(url, { CI: 'true', DISPLAY: ':0' }, platform)).toEqual({ open: false, reason: 'CI is set' });
  });

  it('treats CI=false and CI=0 as not CI', () => {
    expect(browserOpener(url, { CI: 'false', DISPLAY: ':0' }, 'linux')).toMatchObject({ open: true });
    expect(browserOpener(url, { CI: '0', DISPLAY: ':0' }, 'linux')).toMatchObject({ open: true });
  });

  it('uses open on macOS and start on Windows, which always have a display', () => {
    expect(browserOpener(url, {}, 'darwin')).toEqual({ open: true, command: 'open', args: [url] });
    expect(browserOpener(url, {}, 'win32')).toEqual({ open: true, command: 'cmd', args: ['/c', 'start', '""', url] });
  });
});

describe('addressIn', () => {
  it('finds the loopback address with its token in serve output', () => {
    expect(addressIn(`Open: ${url}`)).toBe(url);
  });

  it('finds it inside terminal colour codes', () => {
    expect(addressIn(`Open: \x1b[36m${url}\x1b[39m`)).toBe(url);
  });

  it('ignores lines without a loopback address', () => {
    expect(addressIn('Distributor Inspector is serving /tmp/demo/workspace.json')).toBeUndefined();
    expect(addressIn('see https://example.com:443/docs')).toBeUndefined();
  });
});

describe('addressLine', () => {
  it('says "open this address" whether or not a browser was asked', () => {
    expect(addressLine(url, false)).toBe(`Open this address in your browser: ${url}`);
    expect(addressLine(url, true)).toContain(`open this address: ${url}`);
  });
});

describe('fallbackReason', () => {
  it('says what is missing without naming an environment variable the user never set', () => {
    const missing = { ok: false as const, reason: 'no Electron binary is installed (set ELECTRON_OVERRIDE_DIST_PATH …)' };
    const reason = fallbackReason(missing, true, {});
    expect(reason).toBe('the desktop window needs Electron, which is not installed here');
    expect(reason).not.toMatch(/[A-Z_]{6,}/);
  });

  it('keeps the variable in the reason when the user set it and it points nowhere', () => {
    const wrong = { ok: false as const, reason: 'ELECTRON_OVERRIDE_DIST_PATH is set, but /x/electron does not exist' };
    expect(fallbackReason(wrong, true, { ELECTRON_OVERRIDE_DIST_PATH: '/x' })).toBe(wrong.reason);
  });

  it('says there is no display rather than naming DISPLAY', () => {
    expect(fallbackReason({ ok: true, path: '/e' }, false, {})).toBe('there is no display for a desktop window');
  });
});
