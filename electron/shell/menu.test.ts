import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { ACCELERATORS, buildMenuTemplate, flattenMenu, recentLabel, type MenuActions, type MenuOptions } from './menu';

type Call = [string, ...unknown[]];

function recordingActions(calls: Call[]): MenuActions {
  return {
    sendCommand: (command, path) => calls.push(path === undefined ? ['sendCommand', command] : ['sendCommand', command, path]),
    clearRecentWorkspaces: () => calls.push(['clearRecentWorkspaces']),
    setTheme: (theme) => calls.push(['setTheme', theme]),
    openLogsFolder: () => calls.push(['openLogsFolder']),
    copyDiagnostics: () => calls.push(['copyDiagnostics']),
  };
}

function build(overrides: Partial<MenuOptions> = {}, calls: Call[] = []) {
  return buildMenuTemplate({
    platform: 'linux',
    isDevelopment: false,
    productName: 'Distributor Inspector',
    recentWorkspaces: [],
    theme: 'system',
    actions: recordingActions(calls),
    ...overrides,
  });
}

function item(template: MenuItemConstructorOptions[], id: string): MenuItemConstructorOptions {
  const found = flattenMenu(template).find((entry) => entry.id === id);
  if (!found) throw new Error(`no menu item ${id}`);
  return found;
}

function click(entry: MenuItemConstructorOptions): void {
  (entry.click as () => void)();
}

const roles = (template: MenuItemConstructorOptions[]) => flattenMenu(template).flatMap((entry) => (entry.role ? [entry.role] : []));
const topLabels = (template: MenuItemConstructorOptions[]) => template.map((entry) => entry.label ?? entry.role);

// Electron's default accelerators for the roles we use (electron/electron lib/browser/api/menu-item-roles.ts).
function roleAccelerator(role: string, platform: NodeJS.Platform): string | undefined {
  const isMac = platform === 'darwin';
  const table: Record<string, string | undefined> = {
    close: 'CmdOrCtrl+W',
    copy: 'CmdOrCtrl+C',
    cut: 'CmdOrCtrl+X',
    paste: 'CmdOrCtrl+V',
    undo: 'CmdOrCtrl+Z',
    redo: platform === 'win32' ? 'Ctrl+Y' : 'Shift+CmdOrCtrl+Z',
    selectAll: 'CmdOrCtrl+A',
    resetZoom: 'CmdOrCtrl+0',
    zoomIn: 'CmdOrCtrl+Plus',
    zoomOut: 'CmdOrCtrl+-',
    togglefullscreen: isMac ? 'Ctrl+Cmd+F' : 'F11',
    forceReload: 'Shift+CmdOrCtrl+R',
    toggleDevTools: isMac ? 'Alt+Cmd+I' : 'Ctrl+Shift+I',
    quit: platform === 'win32' ? undefined : 'CmdOrCtrl+Q',
    hide: 'Cmd+H',
    hideOthers: 'Cmd+Alt+H',
    minimize: 'CmdOrCtrl+M',
  };
  return table[role];
}

/** One spelling per key chord on a platform: CmdOrCtrl resolved, modifiers sorted. */
function chord(accelerator: string, platform: NodeJS.Platform): string {
  const isMac = platform === 'darwin';
  const parts = accelerator.split('+').map((part) => {
    const key = part.toLowerCase();
    if (key === 'cmdorctrl' || key === 'commandorcontrol') return isMac ? 'cmd' : 'ctrl';
    if (key === 'command') return 'cmd';
    if (key === 'control') return 'ctrl';
    if (key === 'option') return 'alt';
    return key;
  });
  const key = parts.pop()!;
  return [...parts.sort(), key].join('+');
}

function allChords(template: MenuItemConstructorOptions[], platform: NodeJS.Platform): string[] {
  // The window menu role brings its own items: minimize everywhere, close outside macOS.
  const windowRoleItems = platform === 'darwin' ? ['minimize'] : ['minimize', 'close'];
  const accelerators = flattenMenu(template).flatMap((entry) => {
    if (entry.role === 'windowMenu') return windowRoleItems.map((role) => roleAccelerator(role, platform)!);
    const accelerator = (entry.accelerator as string | undefined) ?? (entry.role ? roleAccelerator(entry.role, platform) : undefined);
    return accelerator ? [accelerator] : [];
  });
  return accelerators.map((accelerator) => chord(accelerator, platform));
}

describe('buildMenuTemplate', () => {
  it('has the app menu first on macOS only, then File, Edit, View, Window and Help', () => {
    expect(topLabels(build({ platform: 'darwin' }))).toEqual(['Distributor Inspector', 'File', 'Edit', 'View', 'Window', 'Help']);
    expect(topLabels(build({ platform: 'win32' }))).toEqual(['&File', '&Edit', '&View', '&Window', '&Help']);
  });

  it('shows the shortcuts of the four operator commands in the menu', () => {
    const template = build();
    expect(item(template, 'openWorkspace').accelerator).toBe('CmdOrCtrl+O');
    expect(item(template, 'rescan').accelerator).toBe('CmdOrCtrl+R');
    expect(item(template, 'verifyAll').accelerator).toBe('CmdOrCtrl+Shift+A');
    expect(item(template, 'find').accelerator).toBe('CmdOrCtrl+F');
    expect(item(template, 'exportReport').accelerator).toBe('CmdOrCtrl+Shift+E');
  });

  it('sends each command to the renderer on the appCommand channel when clicked', () => {
    const calls: Call[] = [];
    const template = build({}, calls);
    for (const id of ['openWorkspace', 'rescan', 'verifyAll', 'find', 'exportReport']) click(item(template, id));
    expect(calls).toEqual([
      ['sendCommand', 'openWorkspace'],
      ['sendCommand', 'rescan'],
      ['sendCommand', 'verifyAll'],
      ['sendCommand', 'find'],
      ['sendCommand', 'exportReport'],
    ]);
  });

  it('leaves reload and the developer tools out of the packaged app', () => {
    const packaged = roles(build({ isDevelopment: false }));
    expect(packaged).not.toContain('reload');
    expect(packaged).not.toContain('forceReload');
    expect(packaged).not.toContain('toggleDevTools');
    expect(packaged).toEqual(
      expect.arrayContaining(['zoomIn', 'zoomOut', 'resetZoom', 'undo', 'copy', 'paste', 'selectAll', 'windowMenu', 'about']),
    );
  });

  it('offers reload and developer tools in development without taking Rescan’s shortcut', () => {
    const template = build({ isDevelopment: true });
    expect(roles(template)).toEqual(expect.arrayContaining(['forceReload', 'toggleDevTools']));
    expect(roles(template)).not.toContain('reload');
    const reload = flattenMenu(template).find((entry) => entry.role === 'forceReload');
    expect(reload?.accelerator).toBe(ACCELERATORS.developmentReload);
    expect(item(template, 'rescan').accelerator).toBe('CmdOrCtrl+R');
  });

  for (const platform of ['darwin', 'win32', 'linux'] as const) {
    for (const isDevelopment of [false, true]) {
      it(`gives no two items the same key chord (${platform}, ${isDevelopment ? 'development' : 'packaged'})`, () => {
        const chords = allChords(build({ platform, isDevelopment }), platform);
        const duplicates = chords.filter((value, index) => chords.indexOf(value) !== index);
        expect(duplicates).toEqual([]);
        expect(chords.length).toBeGreaterThan(10);
      });
    }
  }

  it('puts Open Logs Folder, Copy Diagnostics and About in Help (About in the app menu on macOS)', () => {
    const calls: Call[] = [];
    const help = build({}, calls).at(-1)!;
    const helpItems = help.submenu as MenuItemConstructorOptions[];
    expect(helpItems.map((entry) => entry.label ?? entry.role ?? entry.type)).toEqual([
      'Open Logs Folder',
      'Copy Diagnostics',
      'separator',
      'about',
    ]);
    click(helpItems[0]!);
    click(helpItems[1]!);
    expect(calls).toEqual([['openLogsFolder'], ['copyDiagnostics']]);

    const macHelp = build({ platform: 'darwin' }).at(-1)!.submenu as MenuItemConstructorOptions[];
    expect(macHelp.map((entry) => entry.role ?? entry.label)).toEqual(['Open Logs Folder', 'Copy Diagnostics']);
    expect((build({ platform: 'darwin' })[0]!.submenu as MenuItemConstructorOptions[])[0]?.role).toBe('about');
  });

  it('lists recent workspaces newest first and opens the one clicked', () => {
    const calls: Call[] = [];
    const template = build({ recentWorkspaces: ['/srv/sites/b', '/srv/sites/a'] }, calls);
    const recent = item(template, 'openRecent').submenu as MenuItemConstructorOptions[];
    expect(recent.map((entry) => entry.label ?? entry.type)).toEqual(['/srv/sites/b', '/srv/sites/a', 'separator', 'Clear Recent']);
    click(recent[1]!);
    click(item(template, 'clearRecent'));
    expect(calls).toEqual([['sendCommand', 'openWorkspace', '/srv/sites/a'], ['clearRecentWorkspaces']]);
  });

  it('says there are no recent workspaces instead of showing an empty menu', () => {
    const recent = item(build(), 'openRecent').submenu as MenuItemConstructorOptions[];
    expect(recent[0]).toMatchObject({ label: 'No Recent Workspaces', enabled: false });
    expect(item(build(), 'clearRecent').enabled).toBe(false);
  });

  it('checks the current theme and switches on click', () => {
    const calls: Call[] = [];
    const template = build({ theme: 'dark' }, calls);
    expect(item(template, 'theme-dark').checked).toBe(true);
    expect(item(template, 'theme-system').checked).toBe(false);
    click(item(template, 'theme-light'));
    expect(calls).toEqual([['setTheme', 'light']]);
  });
});

describe('recentLabel', () => {
  it('keeps the end of a long path, which names the workspace', () => {
    const label = recentLabel(`/very/${'deep/'.repeat(20)}site-a`, 30);
    expect(label).toHaveLength(30);
    expect(label.startsWith('…')).toBe(true);
    expect(label.endsWith('/site-a')).toBe(true);
  });

  it('shows an ampersand in a path instead of turning it into a mnemonic', () => {
    expect(recentLabel('/srv/R&D')).toBe('/srv/R&&D');
  });
});
