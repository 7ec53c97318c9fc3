// The application menu as data: a pure function from the platform, the mode and the settings to
// Electron's menu template. Role-based wherever Electron has a role, so labels, native behaviour and
// translations come for free. Must never import Electron at run time (type only: it is tested under
// Node), and must never decide what a command does: clicks go to the `actions` the shell passes in.
//
// The commands' accelerators come from shared/shortcuts.ts, the one table the page matches key
// presses against too (the browser host has the same keys; in Electron the page leaves them to the
// menu, so nothing fires twice). The same in development and packaged:
//   Zoom in/out/reset CmdOrCtrl+Plus / CmdOrCtrl+- / CmdOrCtrl+0   (Electron's role defaults)
//   Page reload       CmdOrCtrl+Shift+R                            (development only; Rescan owns R)
//   Developer tools   Alt+Cmd+I / Ctrl+Shift+I                      (development only)

import type { MenuItemConstructorOptions } from 'electron';
import { acceleratorOf, type AppCommand } from '../../shared/shortcuts';
import type { Theme } from './settingsFile';

export type { AppCommand };

export interface MenuActions {
  /** Sends `{command, path?}` to the renderer on the one appCommand event channel. */
  sendCommand(command: AppCommand, path?: string): void;
  clearRecentWorkspaces(): void;
  setTheme(theme: Theme): void;
  openLogsFolder(): void;
  copyDiagnostics(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  /** Not packaged: adds reload and the developer tools. */
  isDevelopment: boolean;
  productName: string;
  recentWorkspaces: readonly string[];
  theme: Theme;
  actions: MenuActions;
}

/** From the one shortcut table the page also matches keys against (shared/shortcuts.ts). */
export const ACCELERATORS = {
  openWorkspace: acceleratorOf('openWorkspace'),
  rescan: acceleratorOf('rescan'),
  verifyAll: acceleratorOf('verifyAll'),
  exportReport: acceleratorOf('exportReport'),
  find: acceleratorOf('find'),
  developmentReload: 'CmdOrCtrl+Shift+R',
} as const;

const MAX_RECENT_IN_MENU = 10;

/** A long path in a menu: keep the end, which names the workspace. */
export function recentLabel(path: string, maxChars = 60): string {
  const label = path.length > maxChars ? `…${path.slice(path.length - maxChars + 1)}` : path;
  // `&` marks a mnemonic on Windows and Linux; a path must show it literally.
  return label.replace(/&/g, '&&');
}

export function buildMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const { actions } = options;
  const isMac = options.platform === 'darwin';
  // Mnemonics (Alt+F…) on Windows and Linux; macOS has none and would show the `&`.
  const top = (label: string) => (isMac ? label : `&${label}`);
  const template: MenuItemConstructorOptions[] = [];

  if (isMac) {
    template.push({
      label: options.productName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }

  const recent = options.recentWorkspaces.slice(0, MAX_RECENT_IN_MENU);
  template.push({
    label: top('File'),
    submenu: [
      {
        id: 'openWorkspace',
        label: 'Open Workspace…',
        accelerator: ACCELERATORS.openWorkspace,
        click: () => actions.sendCommand('openWorkspace'),
      },
      {
        id: 'openRecent',
        label: 'Open Recent',
        submenu: [
          ...(recent.length === 0
            ? [{ label: 'No Recent Workspaces', enabled: false } satisfies MenuItemConstructorOptions]
            : recent.map((path): MenuItemConstructorOptions => ({
                label: recentLabel(path),
                click: () => actions.sendCommand('openWorkspace', path),
              }))),
          { type: 'separator' },
          { id: 'clearRecent', label: 'Clear Recent', enabled: recent.length > 0, click: () => actions.clearRecentWorkspaces() },
        ],
      },
      { type: 'separator' },
      { id: 'rescan', label: 'Rescan', accelerator: ACCELERATORS.rescan, click: () => actions.sendCommand('rescan') },
      { id: 'verifyAll', label: 'Verify All', accelerator: ACCELERATORS.verifyAll, click: () => actions.sendCommand('verifyAll') },
      { id: 'resetDemo', label: 'Reset Demo Workspace…', click: () => actions.sendCommand('resetDemo') },
      { type: 'separator' },
      {
        id: 'exportReport',
        label: 'Export Report…',
        accelerator: ACCELERATORS.exportReport,
        click: () => actions.sendCommand('exportReport'),
      },
      { type: 'separator' },
      isMac ? { role: 'close' } : { role: 'quit' },
    ],
  });

  template.push({
    label: top('Edit'),
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'delete' },
      { type: 'separator' },
      { role: 'selectAll' },
    ],
  });

  const theme = (value: Theme, label: string): MenuItemConstructorOptions => ({
    id: `theme-${value}`,
    label,
    type: 'radio',
    checked: options.theme === value,
    click: () => actions.setTheme(value),
  });
  template.push({
    label: top('View'),
    submenu: [
      { id: 'find', label: 'Find', accelerator: ACCELERATORS.find, click: () => actions.sendCommand('find') },
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { label: 'Theme', submenu: [theme('system', 'Follow System'), theme('light', 'Light'), theme('dark', 'Dark')] },
      { type: 'separator' },
      { role: 'togglefullscreen' },
      ...(options.isDevelopment
        ? ([
            { type: 'separator' },
            // Rescan owns CmdOrCtrl+R in every mode; reloading the page is a developer's tool.
            { role: 'forceReload', accelerator: ACCELERATORS.developmentReload },
            { role: 'toggleDevTools' },
          ] satisfies MenuItemConstructorOptions[])
        : []),
    ],
  });

  template.push({ role: 'windowMenu', label: top('Window') });

  template.push({
    role: 'help',
    label: top('Help'),
    submenu: [
      { id: 'openLogsFolder', label: 'Open Logs Folder', click: () => actions.openLogsFolder() },
      { id: 'copyDiagnostics', label: 'Copy Diagnostics', click: () => actions.copyDiagnostics() },
      // macOS has About in the app menu.
      ...(isMac ? [] : ([{ type: 'separator' }, { role: 'about' }] satisfies MenuItemConstructorOptions[])),
    ],
  });

  return template;
}

/** Every item of a template, depth first; for tests and for finding items by id. */
export function flattenMenu(template: readonly MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flattenMenu(item.submenu) : [])]);
}
