// Electron side of the settings file: loads it from the user data folder at start, applies the
// theme override (nativeTheme, which the renderer sees as prefers-color-scheme), restores and tracks
// the window bounds, remembers opened workspaces, and saves one change at a time. Deciding what is
// valid, restorable or recent is electron/core/settings.ts; this file only connects it to Electron.

import { app, dialog, nativeTheme, screen, type BrowserWindow } from 'electron';
import type { AppLogger } from '../core/logging';
import type { HandlerTable, Session } from '../core/session';
import {
  forgetWorkspace,
  loadSettings,
  rememberWorkspace,
  restorableBounds,
  saveSettings,
  type Settings,
  type SettingsWarning,
  type Theme,
  type WindowBounds,
} from '../core/settings';
import { PRODUCT_NAME } from './diagnostics';

const SAVE_BOUNDS_AFTER_MS = 500;

export interface DesktopSettings {
  current(): Settings;
  /** Applies a change in memory at once and saves it; saves run one after another, never interleaved. */
  update(change: (settings: Settings) => Settings): Promise<void>;
  onChange(listener: (settings: Settings) => void): void;
  setTheme(theme: Theme): Promise<void>;
  clearRecentWorkspaces(): Promise<void>;
  /** Bounds to open the window with, when the saved ones are still on a screen. */
  initialBounds(): WindowBounds | undefined;
  /** Saves the window's bounds as it moves and closes; reports a reset settings file once it has loaded. */
  trackWindow(window: BrowserWindow): void;
  /** Overrides for Session.call: openWorkspace also lands in the recent list. */
  handlers(session: Session): Pick<HandlerTable, 'openWorkspace'>;
  /** Warnings from loading (a corrupt file set aside), for the UI. */
  warnings: SettingsWarning[];
}

export async function setupSettings(logger: AppLogger): Promise<DesktopSettings> {
  const folder = app.getPath('userData');
  const loaded = await loadSettings(folder);
  let settings = loaded.settings;
  for (const warning of loaded.warnings) logger.warn(warning.message, warning.issues);
  nativeTheme.themeSource = settings.theme;

  const listeners: ((settings: Settings) => void)[] = [];
  let saving: Promise<void> = Promise.resolve();

  const update = (change: (settings: Settings) => Settings): Promise<void> => {
    settings = change(settings);
    const snapshot = settings;
    for (const listener of listeners) listener(snapshot);
    saving = saving.then(async () => {
      const result = await saveSettings(folder, snapshot);
      if (!result.ok) logger.warn(result.warning.message, result.warning.issues);
    });
    return saving;
  };

  return {
    warnings: loaded.warnings,
    current: () => settings,
    update,
    onChange: (listener) => void listeners.push(listener),
    setTheme: (theme) => {
      nativeTheme.themeSource = theme;
      return update((current) => ({ ...current, theme }));
    },
    clearRecentWorkspaces: () => update((current) => ({ ...current, recentWorkspaces: [] })),
    initialBounds: () => restorableBounds(settings.windowBounds, screen.getAllDisplays().map((display) => display.workArea)),
    trackWindow: (window) => {
      let timer: NodeJS.Timeout | undefined;
      const saveBounds = () => {
        clearTimeout(timer);
        if (window.isDestroyed() || window.isMinimized() || window.isFullScreen()) return;
        // Normal bounds: a maximized window reopens maximized over the size it had before.
        const bounds = window.getNormalBounds();
        void update((current) => ({ ...current, windowBounds: { ...bounds, maximized: window.isMaximized() } }));
      };
      const later = () => {
        clearTimeout(timer);
        timer = setTimeout(saveBounds, SAVE_BOUNDS_AFTER_MS);
      };
      window.on('resize', later);
      window.on('move', later);
      window.on('maximize', saveBounds);
      window.on('unmaximize', saveBounds);
      window.on('close', saveBounds);
      if (settings.windowBounds?.maximized) window.maximize();
      if (loaded.warnings.length > 0) {
        window.webContents.once('did-finish-load', () => {
          void dialog.showMessageBox(window, {
            type: 'warning',
            title: PRODUCT_NAME,
            message: 'Your settings were reset',
            detail: loaded.warnings.map((warning) => warning.message).join('\n'),
          });
        });
      }
    },
    handlers: (session) => ({
      openWorkspace: async (request) => {
        try {
          const workspace = await session.handlers.openWorkspace(request);
          void update((current) => rememberWorkspace(current, request.path));
          return workspace;
        } catch (cause) {
          // A recent workspace that no longer opens leaves the list; the error still reaches the UI.
          if (settings.recentWorkspaces.includes(request.path)) void update((current) => forgetWorkspace(current, request.path));
          throw cause;
        }
      },
    }),
  };
}
