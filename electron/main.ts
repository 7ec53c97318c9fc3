// The desktop app's lifecycle: one hardened window on app://renderer, the API over IPC, the native
// menu, settings (recent workspaces, window bounds) and the log file. Thin: what decides lives in
// electron/shell (plain functions with tests) and electron/service (the engine behind the API).
// Must never load remote content, grant a permission, or let the page navigate or open windows.

import { demoControl } from './demo/demoControl';
import { app, BrowserWindow, dialog, protocol, session as electronSession, shell } from 'electron';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session } from './service/session';
import { PREFERENCES_FILE_NAME } from './service/preferencesFile';
import { sendEvent, setupIpc } from './ipc';
import { staticFiles } from './web/staticFiles';
import { setupMenu } from './shell/appMenu';
import { resolveAppRequest } from './shell/appProtocol';
import { desktopHandlers } from './shell/desktopHandlers';
import { pickedPath, sourceBundleDialogOptions, workspaceDialogOptions, type OpenDialogRequest } from './shell/openDialogs';
import { PRODUCT_NAME } from './shell/diagnostics';
import { workspaceFromArgv } from './shell/launchArgs';
import { setupLogging } from './shell/logging';
import type { AppCommand } from './shell/menu';
import { guardWebContents, isOpenableExternalUrl } from './shell/navigation';
import { setupSettings } from './shell/settings';
import { APP_SCHEME, APP_START_URL, mainWindowOptions } from './shell/windowOptions';
import { sshHostConnector } from './remote/hostConnector';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.join(here, 'renderer');
const preload = path.join(here, 'preload.cjs');

// Before `ready`: a standard, secure scheme gets a real origin, so CSP 'self' and the sender check mean something.
// corsEnabled: Chromium fetches module scripts in CORS mode, which it refuses for schemes without it.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
]);

if (!app.requestSingleInstanceLock()) {
  // Another window already runs: it gets our argv (second-instance) and we leave quietly.
  app.quit();
} else {
  void app.whenReady().then(start);
}

async function start(): Promise<void> {
  const logging = setupLogging();
  const settings = await setupSettings(logging.logger);

  hardenSessions();
  const files = staticFiles(rendererDir);
  protocol.handle(APP_SCHEME, async (request) => {
    const answer = await resolveAppRequest(request.url, files);
    if (answer.status !== 200 || !answer.file) return new Response('Not found', { status: answer.status, headers: answer.headers });
    return new Response(await fs.readFile(answer.file), { status: 200, headers: answer.headers });
  });

  const session = new Session({
    transport: 'electron',
    initialWorkspace: workspaceFromArgv(process.argv, app.isPackaged, app.getAppPath()),
    demo: demoControl,
    connectHost: sshHostConnector(),
    // Beside settings.json: the session's own preferences (auto-verify).
    preferencesFile: path.join(app.getPath('userData'), PREFERENCES_FILE_NAME),
  });
  let window: BrowserWindow | undefined;
  const targets = () => (window && !window.isDestroyed() ? [window.webContents] : []);
  const sendCommand = (command: AppCommand, workspacePath?: string) =>
    sendEvent(targets(), { event: 'appCommand', data: workspacePath === undefined ? { command } : { command, path: workspacePath } });

  const showOpenDialog = async (options: OpenDialogRequest) =>
    pickedPath(window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options));
  const overrides = {
    ...desktopHandlers(session, {
      chooseWorkspace: (kind) => showOpenDialog(workspaceDialogOptions(kind)),
      chooseSourceBundle: (startIn) => showOpenDialog(sourceBundleDialogOptions(startIn)),
      showItemInFolder: (target) => shell.showItemInFolder(target),
      openExternal: async (url) => {
        if (isOpenableExternalUrl(url)) await shell.openExternal(url);
      },
      log: logging.log,
      openLogsFolder: async () => void (await logging.openLogsFolder()),
    }),
    // Remembered for the menu's recent list once it opened.
    ...settings.handlers(session),
  };
  setupIpc(session, overrides, targets);
  setupMenu({ settings, logging, session, sendCommand });

  const createWindow = () => {
    const created = new BrowserWindow(
      mainWindowOptions({ preload, title: PRODUCT_NAME, bounds: settings.initialBounds(), isPackaged: app.isPackaged }),
    );
    settings.trackWindow(created);
    created.once('ready-to-show', () => created.show());
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
    const requested = workspaceFromArgv(argv, app.isPackaged, app.getAppPath());
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
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents));
}
