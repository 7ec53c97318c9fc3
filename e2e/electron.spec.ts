// The desktop app itself, through Playwright's Electron driver: the window's security settings as
// Electron reports them, the narrow preload bridge, the API over IPC, navigation refused.
// Runs only where an Electron binary exists (node_modules/electron/dist or ELECTRON_OVERRIDE_DIST_PATH)
// and a display; everywhere else each test is skipped with the reason printed.

import { _electron as electron, type ElectronApplication, type Page } from '@playwright/test';
import { findElectronBinary, hasDisplay } from '../scripts/electronBinary.mjs';
import { makeFixtureWorkspace, type FixtureWorkspace } from '../electron/testing/sessionFixtures';
import { expect, ROOT, test } from './fixtures';

const binary = findElectronBinary(ROOT);
const skipReason = !binary.ok
  ? binary.reason
  : !hasDisplay()
    ? 'no display for an Electron window (DISPLAY and WAYLAND_DISPLAY are unset)'
    : undefined;
if (skipReason) console.log(`e2e/electron.spec.ts: skipped: ${skipReason}`);

test.describe('the desktop app', () => {
  test.skip(skipReason !== undefined, skipReason);

  let app: ElectronApplication;
  let window: Page;
  let fixture: FixtureWorkspace;

  test.beforeEach(async ({ tempDir }) => {
    fixture = await makeFixtureWorkspace();
    // Never let Playwright resolve `electron` itself: that package downloads a binary when it has none.
    app = await electron.launch({
      executablePath: binary.ok ? binary.path : '',
      args: [ROOT, `--workspace=${fixture.workspace}`, `--user-data-dir=${tempDir}`],
      env: { ...process.env, ELECTRON_ENABLE_LOGGING: '1' },
    });
    window = await app.firstWindow();
    await window.waitForLoadState('domcontentloaded');
  });

  test.afterEach(async () => {
    await app?.close();
    await fixture?.remove();
  });

  test('loads the app page under the CSP, with every permission denied', async () => {
    expect(window.url()).toBe('app://renderer/index.html');
    const observed = await window.evaluate(async () => {
      const g = globalThis as unknown as {
        document: { createElement(tag: string): { textContent: string }; head: { append(node: unknown): void } };
        __inlineRan?: boolean;
        Notification: { requestPermission(): Promise<string> };
      };
      const script = g.document.createElement('script');
      script.textContent = 'globalThis.__inlineRan = true';
      g.document.head.append(script);
      return { inlineRan: g.__inlineRan === true, notifications: await g.Notification.requestPermission() };
    });
    expect(observed).toEqual({ inlineRan: false, notifications: 'denied' });
  });

  test('exposes only invoke and on, and no Node, to the page', async () => {
    const surface = await window.evaluate(() => {
      const g = globalThis as unknown as { inspector?: object; require?: unknown; process?: unknown };
      return { keys: Object.keys(g.inspector ?? {}).sort(), require: typeof g.require, process: typeof g.process };
    });
    expect(surface).toEqual({ keys: ['invoke', 'on'], require: 'undefined', process: 'undefined' });
  });

  test('answers the API over IPC and refuses methods outside the table', async () => {
    const answers = await window.evaluate(async () => {
      const bridge = (globalThis as unknown as { inspector: { invoke(m: string, r: unknown): Promise<unknown> } }).inspector;
      return {
        info: await bridge.invoke('appInfo', {}),
        unknown: await bridge.invoke('__proto__', {}),
        bad: await bridge.invoke('inspectDestination', { nope: 1 }),
      };
    });
    expect(answers.info).toMatchObject({ ok: true, value: { transport: 'electron', workspace: { root: fixture.workspace } } });
    expect(answers.unknown).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    expect(answers.bad).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });

  test('refuses to navigate away or open a new window', async () => {
    await window.evaluate(() => {
      const g = globalThis as unknown as { location: { href: string }; open(url: string): unknown };
      g.open('https://example.com/');
      g.location.href = 'https://example.com/';
    });
    await window.waitForTimeout(500);
    expect(window.url()).toBe('app://renderer/index.html');
    expect(app.windows()).toHaveLength(1);
  });
});
