// The desktop window's options and the app's own origin, as plain data so a test can hold every
// security setting in place. Type-only import of Electron: runs under Node in tests.
// Must never turn on Node in the renderer, turn off isolation, the sandbox or web security.

import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';
import type { WindowBounds } from './settingsFile';

/** The renderer is served from this privileged, standard scheme (never file://, whose origin is every file). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'renderer';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 800 };
export const MIN_WINDOW_SIZE = { width: 720, height: 480 };

/**
 * Every setting that keeps the page from reaching Node, other pages or the operator's machine.
 * `isPackaged` (app.isPackaged): a packaged build has no devtools at all, not only no menu item, so
 * no shortcut or injected call can open a console with the bridge in reach.
 */
export function secureWebPreferences(preload: string, isPackaged: boolean): WebPreferences {
  return {
    preload,
    devTools: !isPackaged,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    // Nothing the page does needs a devtools extension or a remote module; safeDialogs stops dialog spam.
    safeDialogs: true,
  };
}

export interface MainWindowInput {
  preload: string;
  /** app.isPackaged: devtools are off in a packaged build. */
  isPackaged: boolean;
  title: string;
  /** Restored bounds (settings), already checked to be on a screen; undefined opens centred. */
  bounds?: WindowBounds;
  /** Linux/Windows window icon (macOS takes the bundle's). */
  icon?: string;
}

export function mainWindowOptions(input: MainWindowInput): BrowserWindowConstructorOptions {
  const size = input.bounds
    ? { x: input.bounds.x, y: input.bounds.y, width: input.bounds.width, height: input.bounds.height }
    : DEFAULT_WINDOW_SIZE;
  return {
    ...size,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    title: input.title,
    // Shown once the first paint is ready, so the operator never sees a white flash.
    show: false,
    backgroundColor: '#1e1e1e',
    ...(input.icon ? { icon: input.icon } : {}),
    webPreferences: secureWebPreferences(input.preload, input.isPackaged),
  };
}
