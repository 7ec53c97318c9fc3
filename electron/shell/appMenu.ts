// Installs the application menu (electron/shell/menu.ts builds it) and carries out what its items
// ask for: app commands go to the renderer as one `appCommand` event on the API's event channel;
// theme and recent workspaces go to the settings; logs and diagnostics are handled here. Rebuilt
// whenever the settings change, so Open Recent and the theme radio stay current. Thin.

import { release } from 'node:os';
import { app, clipboard, Menu } from 'electron';
import { APP_VERSION } from '../engine/appVersion';
import type { Session } from '../service/session';
import { buildDiagnostics, PRODUCT_NAME } from './diagnostics';
import type { DesktopLogging } from './logging';
import { buildMenuTemplate, type AppCommand } from './menu';
import type { DesktopSettings } from './settings';

export interface MenuDependencies {
  settings: DesktopSettings;
  logging: DesktopLogging;
  session: Session;
  /** Sends `{command, path?}` as an appCommand event on the API's one event channel (ipc.ts). */
  sendCommand(command: AppCommand, path?: string): void;
}

export function setupMenu({ settings, logging, session, sendCommand }: MenuDependencies): void {
  app.setAboutPanelOptions({
    applicationName: PRODUCT_NAME,
    applicationVersion: APP_VERSION,
    copyright: 'Copyright © 2026 Distributor Inspector contributors',
  });

  const diagnostics = () => {
    const open = session.state.workspace?.summary;
    return buildDiagnostics({
      productName: PRODUCT_NAME,
      appVersion: APP_VERSION,
      packaged: app.isPackaged,
      versions: process.versions,
      platform: process.platform,
      arch: process.arch,
      osRelease: release(),
      locale: app.getLocale(),
      workspace: open ? { kind: open.kind, destinationCount: open.destinations.length } : undefined,
    });
  };

  const install = () => {
    const template = buildMenuTemplate({
      platform: process.platform,
      isDevelopment: !app.isPackaged,
      productName: PRODUCT_NAME,
      recentWorkspaces: settings.current().recentWorkspaces,
      theme: settings.current().theme,
      actions: {
        sendCommand,
        clearRecentWorkspaces: () => void settings.clearRecentWorkspaces(),
        setTheme: (theme) => void settings.setTheme(theme),
        openLogsFolder: () => void logging.openLogsFolder(),
        copyDiagnostics: () => {
          clipboard.writeText(diagnostics());
          logging.logger.info('diagnostics copied to the clipboard');
        },
      },
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  };

  install();
  // Only what the menu shows: window moves also change the settings, and need no new menu.
  let shown = JSON.stringify([settings.current().recentWorkspaces, settings.current().theme]);
  settings.onChange((current) => {
    const next = JSON.stringify([current.recentWorkspaces, current.theme]);
    if (next === shown) return;
    shown = next;
    install();
  });
}
