import fc from 'fast-check';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodNames, methods, type MethodName } from '../../shared/api';
import { Session } from '../service/session';
import { makeFixtureWorkspace, type FixtureWorkspace } from '../testing/sessionFixtures';
import { staticFiles } from '../web/staticFiles';
import { resolveAppRequest } from './appProtocol';
import { ELECTRON_CSP } from '../web/csp';
import { desktopHandlers, type DesktopDeps } from './desktopHandlers';
import { ipcHandlerTable } from './ipcHandlers';
import { ipcChannel } from './ipcChannels';
import { guardWebContents, isAllowedFrameNavigation, isAllowedNavigation, isOpenableExternalUrl, type GuardedContents } from './navigation';
import { isTrustedSender } from './senderCheck';
import { APP_START_URL, mainWindowOptions, secureWebPreferences } from './windowOptions';

describe('window options', () => {
  it('keep the renderer isolated, sandboxed, without Node and with web security', () => {
    const options = mainWindowOptions({ preload: '/app/preload.cjs', title: 'Distributor Inspector', isPackaged: true });
    expect(options.webPreferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
    });
    expect(options.show).toBe(false);
  });

  it('restore saved bounds and otherwise open at the default size', () => {
    expect(
      mainWindowOptions({ preload: 'p', title: 't', isPackaged: true, bounds: { x: 10, y: 20, width: 900, height: 700 } }),
    ).toMatchObject({
      x: 10,
      y: 20,
      width: 900,
      height: 700,
    });
    expect(mainWindowOptions({ preload: 'p', title: 't', isPackaged: true })).toMatchObject({ width: 1280, height: 800 });
    expect(secureWebPreferences('p', true)).not.toHaveProperty('enableBlinkFeatures');
  });

  it('turn devtools off in a packaged build, not only out of the menu, and keep them in development', () => {
    expect(mainWindowOptions({ preload: 'p', title: 't', isPackaged: true }).webPreferences?.devTools).toBe(false);
    expect(mainWindowOptions({ preload: 'p', title: 't', isPackaged: false }).webPreferences?.devTools).toBe(true);
    // Everything else is the same in both.
    const { devTools: _packaged, ...packaged } = secureWebPreferences('p', true);
    const { devTools: _development, ...development } = secureWebPreferences('p', false);
    expect(packaged).toEqual(development);
  });

  it('carry the strict CSP on every page of the app scheme', async () => {
    expect(ELECTRON_CSP.startsWith("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:")).toBe(true);
    expect(ELECTRON_CSP).not.toMatch(/unsafe|connect-src/);
  });
});

describe('the sender check', () => {
  it('accepts only the top frame of the app page', () => {
    expect(isTrustedSender({ url: APP_START_URL, isMainFrame: true })).toBe(true);
    expect(isTrustedSender({ url: 'app://renderer/index.html#/x', isMainFrame: true })).toBe(true);
  });

  it('refuses a foreign frame, a subframe, a look-alike and a missing frame', () => {
    for (const url of [
      'https://evil.example/',
      'file:///app/index.html',
      'app://renderer.evil/index.html',
      'app://evil/renderer',
      'http://127.0.0.1:5173/',
      'app://user@renderer/',
      'about:blank',
      'not a url',
      '',
    ]) {
      expect(isTrustedSender({ url, isMainFrame: true }), url).toBe(false);
    }
    expect(isTrustedSender({ url: APP_START_URL, isMainFrame: false })).toBe(false);
    expect(isTrustedSender(null)).toBe(false);
    expect(isTrustedSender({ url: undefined, isMainFrame: true })).toBe(false);
  });

  it('refuses arbitrary URLs that are not the app origin', () => {
    fc.assert(fc.property(fc.webUrl(), (url) => isTrustedSender({ url, isMainFrame: true }) === false));
  });
});

/** A stand-in for Electron's WebContents: records each listener, and the window-open handler. */
function fakeContents() {
  const listeners = new Map<string, (...args: unknown[]) => void>();
  let openHandler: (() => { action: string }) | undefined;
  const contents: GuardedContents = {
    // Any listener: the guards pass their own typed ones, and emit below calls them as Electron does.
    on(event: string, listener: (...args: never[]) => void) {
      listeners.set(event, listener as (...args: unknown[]) => void);
      return contents;
    },
    setWindowOpenHandler(handler: () => { action: 'deny' }) {
      openHandler = handler;
    },
  };
  /** Emits `event` as Electron would; true when a listener called preventDefault. */
  const emit = (event: string, ...args: unknown[]): boolean => {
    let prevented = false;
    const listener = listeners.get(event);
    if (!listener) throw new Error(`no ${event} listener`);
    const preventable = { preventDefault: () => void (prevented = true) };
    if (event === 'will-frame-navigate') listener({ ...preventable, ...(args[0] as object) });
    else listener(preventable, ...args);
    return prevented;
  };
  return { contents, emit, openHandler: () => openHandler, events: () => [...listeners.keys()].sort() };
}

describe('the web contents guards', () => {
  it('wire will-navigate, will-frame-navigate, will-redirect, will-attach-webview and a deny-all window handler', () => {
    const fake = fakeContents();
    guardWebContents(fake.contents);
    expect(fake.events()).toEqual(['will-attach-webview', 'will-frame-navigate', 'will-navigate', 'will-redirect']);
    expect(fake.openHandler()?.()).toEqual({ action: 'deny' });
    expect(fake.emit('will-attach-webview')).toBe(true);
  });

  it('refuse a navigation away from the app in the main frame by either event, and any subframe navigation', () => {
    const fake = fakeContents();
    guardWebContents(fake.contents);
    expect(fake.emit('will-navigate', 'app://renderer/index.html')).toBe(false);
    expect(fake.emit('will-navigate', 'https://evil.example/')).toBe(true);
    expect(fake.emit('will-redirect', 'https://evil.example/')).toBe(true);
    expect(fake.emit('will-frame-navigate', { url: 'app://renderer/index.html', isMainFrame: true })).toBe(false);
    expect(fake.emit('will-frame-navigate', { url: 'https://evil.example/', isMainFrame: true })).toBe(true);
    // A subframe never navigates, not even to our own page.
    expect(fake.emit('will-frame-navigate', { url: 'app://renderer/index.html', isMainFrame: false })).toBe(true);
    expect(fake.emit('will-frame-navigate', { url: 'file:///etc/passwd', isMainFrame: false })).toBe(true);
  });

  it('decide frame navigations by frame and origin', () => {
    expect(isAllowedFrameNavigation({ url: 'app://renderer/x', isMainFrame: true })).toBe(true);
    expect(isAllowedFrameNavigation({ url: 'app://renderer.evil/x', isMainFrame: true })).toBe(false);
    expect(isAllowedFrameNavigation({ url: 'app://renderer/x', isMainFrame: false })).toBe(false);
  });
});

describe('navigation and external links', () => {
  it('allows no navigation away from the app and opens only https links', () => {
    expect(isAllowedNavigation('app://renderer/index.html')).toBe(true);
    expect(isAllowedNavigation('https://example.com/')).toBe(false);
    expect(isAllowedNavigation('file:///etc/passwd')).toBe(false);
    expect(isOpenableExternalUrl('https://docs.example.com/a/index.html')).toBe(true);
    for (const url of [
      'http://docs.example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'https://user:pw@example.com/',
      'ms-settings:',
    ]) {
      expect(isOpenableExternalUrl(url), url).toBe(false);
    }
  });
});

describe('the IPC handler table', () => {
  it('has one handler and one channel for every method of the API', () => {
    const table = ipcHandlerTable(async () => ({ ok: true, value: null }));
    expect(Object.keys(table).sort()).toEqual([...methodNames].sort());
    expect(new Set(methodNames.map(ipcChannel)).size).toBe(methodNames.length);
  });

  it('is documented: docs/api.md has a row for every method', async () => {
    const doc = await fs.readFile(new URL('../../docs/api.md', import.meta.url), 'utf8');
    for (const method of methodNames) expect(doc, method).toContain(`| \`${method}\` |`);
  });

  it('refuses a foreign frame before the request reaches the engine', async () => {
    const reached: MethodName[] = [];
    const table = ipcHandlerTable(async (method) => (reached.push(method), { ok: true, value: null }));
    for (const method of methodNames) {
      expect(await table[method]({ url: 'https://evil.example/', isMainFrame: true }, {}), method).toMatchObject({
        ok: false,
        error: { code: 'forbidden' },
      });
    }
    expect(reached).toEqual([]);
    expect(await table.appInfo({ url: APP_START_URL, isMainFrame: true }, {})).toEqual({ ok: true, value: null });
    expect(reached).toEqual(['appInfo']);
  });
});

describe('the desktop-only handlers', () => {
  let fixture: FixtureWorkspace;
  let session: Session;
  const revealed: string[] = [];
  const opened: string[] = [];
  const sourceDialogsStartedIn: (string | undefined)[] = [];
  const deps: DesktopDeps = {
    chooseWorkspace: async (kind) => (kind === 'file' ? '/picked/distributor-inspector.json' : null),
    chooseSourceBundle: async (startIn) => {
      sourceDialogsStartedIn.push(startIn);
      return startIn === undefined ? null : path.join(startIn, 'sources', 'v1');
    },
    showItemInFolder: (target) => void revealed.push(target),
    openExternal: async (url) => void opened.push(url),
    log: () => undefined,
    openLogsFolder: async () => undefined,
  };

  beforeAll(async () => {
    fixture = await makeFixtureWorkspace();
    session = new Session({ transport: 'electron', initialWorkspace: fixture.workspace });
  });
  afterAll(async () => {
    await session.close();
    await fixture.remove();
  });

  it('cover every electron-only method of the table', () => {
    const electronOnly = methodNames.filter((method) => (methods[method] as { electronOnly?: boolean }).electronOnly);
    expect(Object.keys(desktopHandlers(session, deps)).sort()).toEqual(electronOnly.sort());
  });

  it('reveal a destination or a clean path inside it, and nothing outside', async () => {
    const overrides = desktopHandlers(session, deps);
    expect(await session.call('revealPath', { destination: 'site-a', path: 'index.html' }, overrides)).toEqual({
      ok: true,
      value: { revealed: true },
    });
    expect(revealed).toEqual([path.join(fixture.workspace, 'site-a', 'index.html')]);
    for (const bad of ['../broken', '/etc/passwd', 'a/../../x', 'a\\b']) {
      expect(await session.call('revealPath', { destination: 'site-a', path: bad }, overrides), bad).toMatchObject({
        ok: false,
        error: { code: 'refused' },
      });
    }
    expect(await session.call('revealPath', { destination: '/etc' }, overrides)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(revealed).toHaveLength(1);
  });

  it('open only https links that the destination state records', async () => {
    const overrides = desktopHandlers(session, deps);
    expect(await session.call('openLink', { destination: 'site-a', url: 'https://docs.example.com/a/index.html' }, overrides)).toEqual({
      ok: true,
      value: { opened: true },
    });
    expect(await session.call('openLink', { destination: 'site-a', url: 'https://evil.example/' }, overrides)).toMatchObject({
      ok: false,
      error: { code: 'refused' },
    });
    expect(await session.call('openLink', { destination: 'site-a', url: 'file:///etc/passwd' }, overrides)).toMatchObject({
      ok: false,
      error: { code: 'refused' },
    });
    expect(opened).toEqual(['https://docs.example.com/a/index.html']);
  });

  it('answer the native dialog with the chosen path or null', async () => {
    const overrides = desktopHandlers(session, deps);
    expect(await session.call('chooseWorkspace', { kind: 'file' }, overrides)).toEqual({
      ok: true,
      value: { path: '/picked/distributor-inspector.json' },
    });
    expect(await session.call('chooseWorkspace', {}, overrides)).toEqual({ ok: true, value: { path: null } });
  });

  it("open the source bundle dialog in the workspace's folder and answer the folder picked", async () => {
    const overrides = desktopHandlers(session, deps);
    expect(await session.call('chooseSourceBundle', {}, overrides)).toEqual({
      ok: true,
      value: { path: path.join(fixture.workspace, 'sources', 'v1') },
    });
    expect(sourceDialogsStartedIn).toEqual([fixture.workspace]);
    // The browser host has no native dialog: it lists the workspace's bundles instead (listSourceBundles).
    expect(await session.call('chooseSourceBundle', {})).toMatchObject({ ok: false, error: { code: 'not_available' } });
  });
});

describe('the app protocol', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'inspector-app-'));
    await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html>');
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('serves the built page with the CSP and nothing for other hosts or paths', async () => {
    const files = staticFiles(dir);
    expect(await resolveAppRequest('app://renderer/', files)).toMatchObject({
      status: 200,
      file: path.join(dir, 'index.html'),
      headers: { 'content-security-policy': ELECTRON_CSP },
    });
    expect((await resolveAppRequest('app://other/index.html', files)).status).toBe(404);
    expect((await resolveAppRequest('app://renderer/../../etc/passwd', files)).status).toBe(404);
    expect((await resolveAppRequest('app://renderer/%2e%2e/x', files)).status).toBe(404);
  });
});
