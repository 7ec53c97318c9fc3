// The desktop app's lifecycle: one hardened window on app://renderer, the API over IPC, the native
// menu, settings (recent workspaces, window bounds) and the log file. Thin: what decides lives in
// electron/shell (plain functions with tests) and electron/core (the engine).
// Must never load remote content, grant a permission, or let the page navigate or open windows.

import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, nativeTheme, protocol, screen, session as electronSession, shell } from 'electron';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_VERSION } from './core/appVersion';
import { createFileLogger, logFolder, sanitizeLogText } from './core/logging';
import { Session } from './core/session';
import { loadSettings, rememberWorkspace, restorableBounds, saveSettings, type Settings } from './core/settings';
import { registerIpc, sendEvent } from './ipc';
import { staticFiles } from './server/staticFiles';
import { resolveAppRequest } from './shell/appProtocol';
import { desktopHandlers } from './shell/desktopHandlers';
import { buildDiagnostics, PRODUCT_NAME } from './shell/diagnostics';
import { workspaceFromArgv } from './shell/launchArgs';
import { buildMenuTemplate, type AppCommand } from './shell/menu';
import { isAllowedNavigation, isOpenableExternalUrl } from './shell/navigation';
import { APP_SCHEME, APP_START_URL, mainWindowOptions } from './shell/windowOptions';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.join(here, 'renderer');
const preload = path.join(here, 'preload.cjs');

// Before `ready`: a standard, secure scheme gets a real origin, so CSP 'self' and the sender check mean something.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

if (!app.requestSingleInstanceLock()) {
  // Another window already runs: it gets our argv (second-instance) and we leave quietly.
  app.quit();
} else {
  void app.whenReady().then(start);
}

async function start(): Promise<void> {
  const userData = app.getPath('userData');
  const logger = createFileLogger({ folder: logFolder(userData), consoleLevel: app.isPackaged ? false : 'warn' });
  const loaded = await loadSettings(userData);
  let settings: Settings = loaded.settings;
  for (const warning of loaded.warnings) logger.warn(warning.message);
  nativeTheme.themeSource = settings.theme;
  const save = async (next: Settings) => {
    settings = next;
    const saved = await saveSettings(userData, next);
    if (!saved.ok) logger.warn(saved.warning.message);
  };

  hardenSessions();
  const files = staticFiles(rendererDir);
  protocol.handle(APP_SCHEME, async (request) => {
    const answer = await resolveAppRequest(request.url, files);
    if (answer.status !== 200 || !answer.file) return new Response('Not found', { status: answer.status, headers: answer.headers });
    return new Response(await fs.readFile(answer.file), { status: 200, headers: answer.headers });
  });

  const session = new Session({ transport: 'electron', initialWorkspace: workspaceFromArgv(process.argv, app.isPackaged) });
  let window: BrowserWindow | undefined;
  const targets = () => (window && !window.isDestroyed() ? [window.webContents] : []);
  const sendCommand = (command: AppCommand, workspacePath?: string) =>
    sendEvent(targets(), { event: 'appCommand', data: workspacePath === undefined ? { command } : { command, path: workspacePath } });

  const overrides = {
    ...desktopHandlers(session, {
      chooseWorkspace: async (kind) => {
        const options = kind === 'file' ? { properties: ['openFile' as const], filters: [{ name: 'Workspace file', extensions: ['json'] }] } : { properties: ['openDirectory' as const] };
        const picked = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
        return picked.canceled ? null : (picked.filePaths[0] ?? null);
      },
      showItemInFolder: (target) => shell.showItemInFolder(target),
      openExternal: async (url) => {
        if (isOpenableExternalUrl(url)) await shell.openExternal(url);
      },
      log: (level, message, context) => logger.scoped(context ? `renderer:${sanitizeLogText(context, 60)}` : 'renderer')[level](sanitizeLogText(message)),
      openLogsFolder: async () => void (await shell.openPath(logFolder(userData))),
    }),
    // Remembered for the menu's recent list once it opened.
    openWorkspace: async ({ path: target }: { path: string }) => {
      const workspace = await session.open(target);
      await save(rememberWorkspace(settings, workspace.path));
      setMenu();
      return workspace;
    },
  };
  registerIpc(ipcMain, session, overrides, targets);

  const setMenu = () =>
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        buildMenuTemplate({
          platform: process.platform,
          isDevelopment: !app.isPackaged,
          productName: PRODUCT_NAME,
          recentWorkspaces: settings.recentWorkspaces,
          theme: settings.theme,
          actions: {
            sendCommand,
            clearRecentWorkspaces: () => void save({ ...settings, recentWorkspaces: [] }).then(setMenu),
            setTheme: (theme) => {
              nativeTheme.themeSource = theme;
              void save({ ...settings, theme }).then(setMenu);
            },
            openLogsFolder: () => void shell.openPath(logFolder(userData)),
            copyDiagnostics: () => {
              const open = session.state.workspace?.summary;
              clipboard.writeText(
                buildDiagnostics({
                  productName: PRODUCT_NAME,
                  appVersion: APP_VERSION,
                  packaged: app.isPackaged,
                  versions: process.versions,
                  platform: process.platform,
                  arch: process.arch,
                  osRelease: os.release(),
                  locale: app.getLocale(),
                  workspace: open ? { kind: open.kind, destinationCount: open.destinations.length } : undefined,
                }),
              );
            },
          },
        }),
      ),
    );
  setMenu();

  const createWindow = () => {
    const bounds = restorableBounds(settings.windowBounds, screen.getAllDisplays().map((display) => display.workArea));
    const created = new BrowserWindow(mainWindowOptions({ preload, title: PRODUCT_NAME, bounds }));
    if (bounds?.maximized) created.maximize();
    created.once('ready-to-show', () => created.show());
    created.on('close', () => {
      const normal = created.getNormalBounds();
      void save({ ...settings, windowBounds: { ...normal, maximized: created.isMaximized() } });
    });
    created.webContents.on('render-process-gone', (_event, details) => logger.error(`renderer gone: ${details.reason}`));
    void created.loadURL(APP_START_URL);
    window = created;
  };
  createWindow();

  app.on('second-instance', (_event, argv) => {
    if (!window || window.isDestroyed()) createWindow();
    else {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
    const requested = workspaceFromArgv(argv, app.isPackaged);
    if (requested) sendCommand('openWorkspace', path.resolve(requested));
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', () => void session.close());
}

/** Deny-all permissions, and no navigation, new window or webview in any web contents, ever. */
function hardenSessions(): void {
  const defaultSession = electronSession.defaultSession;
  defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  defaultSession.setPermissionCheckHandler(() => false);
  defaultSession.setDevicePermissionHandler(() => false);
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isAllowedNavigation(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAllowedNavigation(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}
