// Electron side of the settings file: loads it from the user data folder at start, applies the
// theme override (nativeTheme, which the renderer sees as prefers-color-scheme), restores and tracks
// the window bounds, remembers opened workspaces, and saves one change at a time. Deciding what is
// valid, restorable or recent is electron/shell/settingsFile.ts; this file only connects it to Electron.

import { app, dialog, nativeTheme, screen, type BrowserWindow } from 'electron';
import type { AppLogger } from './logFile';
import type { HandlerTable, Session } from '../service/session';
import {
  createSettingsStore,
  loadSettings,
  restorableBounds,
  type Settings,
  type SettingsWarning,
  type Theme,
  type WindowBounds,
} from './settingsFile';
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
  for (const warning of loaded.warnings) logger.warn(warning.message, warning.issues);
  nativeTheme.themeSource = loaded.settings.theme;
  const store = createSettingsStore(folder, loaded.settings, (warning) => logger.warn(warning.message, warning.issues));

  return {
    warnings: loaded.warnings,
    current: store.current,
    update: store.update,
    onChange: store.onChange,
    setTheme: (theme) => {
      nativeTheme.themeSource = theme;
      return store.update((current) => ({ ...current, theme }));
    },
    clearRecentWorkspaces: () => store.update((current) => ({ ...current, recentWorkspaces: [] })),
    initialBounds: () =>
      restorableBounds(
        store.current().windowBounds,
        screen.getAllDisplays().map((display) => display.workArea),
      ),
    trackWindow: (window) => {
      let timer: NodeJS.Timeout | undefined;
      const saveBounds = () => {
        clearTimeout(timer);
        if (window.isDestroyed() || window.isMinimized() || window.isFullScreen()) return;
        // Normal bounds: a maximized window reopens maximized over the size it had before.
        const { x, y, width, height } = window.getNormalBounds();
        // Whole pixels: the schema (and a scaled display's fractional bounds) must not make the save fail.
        const bounds = {
          x: Math.round(x),
          y: Math.round(y),
          width: Math.max(1, Math.round(width)),
          height: Math.max(1, Math.round(height)),
        };
        void store.update((current) => ({ ...current, windowBounds: { ...bounds, maximized: window.isMaximized() } }));
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
      if (store.current().windowBounds?.maximized) window.maximize();
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
          // The path as the engine resolved it (absolute), so the same workspace is listed once.
          void store.workspaceOpened(workspace.path);
          return workspace;
        } catch (cause) {
          void store.workspaceFailed(request.path);
          throw cause;
        }
      },
    }),
  };
}
