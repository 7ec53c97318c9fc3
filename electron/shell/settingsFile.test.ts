import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  corruptFileName,
  createSettingsStore,
  defaultSettings,
  loadSettings,
  rememberWorkspace,
  restorableBounds,
  saveSettings,
  settingsFilePath,
  type Settings,
} from './settingsFile';

let folder: string;
const fixedNow = () => new Date('2026-12-02T18:30:05.123Z');

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'inspector-settings-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('loadSettings', () => {
  it('gives the defaults without a warning when there is no settings file yet', async () => {
    const loaded = await loadSettings(folder);
    expect(loaded).toEqual({ settings: defaultSettings(), warnings: [] });
  });

  it('reads back what saveSettings wrote', async () => {
    const settings: Settings = {
      recentWorkspaces: ['/srv/site-a', '/srv/site-b'],
      theme: 'dark',
      windowBounds: { x: 10, y: 20, width: 1200, height: 800, maximized: true },
    };
    expect(await saveSettings(folder, settings)).toEqual({ ok: true, value: undefined });
    expect(await loadSettings(folder)).toEqual({ settings, warnings: [] });
  });

  it('moves a truncated file aside, reports it, and goes on with the defaults', async () => {
    const full = JSON.stringify({ recentWorkspaces: ['/srv/a'], theme: 'light' });
    await writeFile(settingsFilePath(folder), full.slice(0, full.length - 7));

    const loaded = await loadSettings(folder, fixedNow);

    expect(loaded.settings).toEqual(defaultSettings());
    expect(loaded.warnings).toHaveLength(1);
    const [warning] = loaded.warnings;
    expect(warning?.code).toBe('settings_reset');
    expect(warning?.issues[0]?.code).toBe('invalid_json');
    expect(warning?.message).toContain('settings.json is invalid');
    expect(warning?.movedTo).toBe(join(folder, 'settings.json.corrupt-2026-12-02T18-30-05-123Z'));
    expect(await readdir(folder)).toEqual(['settings.json.corrupt-2026-12-02T18-30-05-123Z']);
    // The operator's bytes are kept, not rewritten.
    expect(await readFile(warning!.movedTo!, 'utf8')).toBe(full.slice(0, full.length - 7));
  });

  it('moves aside a file whose fields have the wrong types and names each field', async () => {
    await writeFile(
      settingsFilePath(folder),
      JSON.stringify({ recentWorkspaces: '/srv/a', theme: 'sepia', windowBounds: { x: 0, y: 0, width: 'wide', height: 600 } }),
    );

    const loaded = await loadSettings(folder, fixedNow);

    expect(loaded.settings).toEqual(defaultSettings());
    const paths = loaded.warnings[0]?.issues.map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining([['recentWorkspaces'], ['theme'], ['windowBounds', 'width']]));
    expect(loaded.warnings[0]?.message).toMatch(/^settings\.json is invalid \(recentWorkspaces: .*must be an array/);
    expect(await readdir(folder)).toEqual([corruptFileName(fixedNow())]);
  });

  it('treats a top level that is not an object as corrupt', async () => {
    await writeFile(settingsFilePath(folder), '["dark"]');
    const loaded = await loadSettings(folder, fixedNow);
    expect(loaded.warnings[0]?.issues[0]?.code).toBe('not_object');
    expect(loaded.warnings[0]?.movedTo).toBeDefined();
  });

  it('keeps unknown fields, so settings written by a newer version survive a load and a save', async () => {
    await writeFile(settingsFilePath(folder), JSON.stringify({ theme: 'light', sidebarWidth: 320 }));

    const loaded = await loadSettings(folder);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.settings.theme).toBe('light');
    expect(loaded.settings.recentWorkspaces).toEqual([]);

    expect(await saveSettings(folder, rememberWorkspace(loaded.settings, '/srv/c'))).toEqual({ ok: true, value: undefined });
    const written = JSON.parse(await readFile(settingsFilePath(folder), 'utf8'));
    expect(written).toEqual({ theme: 'light', sidebarWidth: 320, recentWorkspaces: ['/srv/c'] });
  });

  it('reports a settings path that cannot be read as a file, without moving anything', async () => {
    await mkdir(settingsFilePath(folder));
    const loaded = await loadSettings(folder);
    expect(loaded.settings).toEqual(defaultSettings());
    expect(loaded.warnings[0]?.code).toBe('settings_unreadable');
    expect(loaded.warnings[0]?.issues[0]?.message).toContain('it is a directory');
    expect(await readdir(folder)).toEqual(['settings.json']);
  });

  it.skipIf(process.platform === 'win32')('answers at once when a FIFO stands in its place, never opening it', async () => {
    execFileSync('mkfifo', [settingsFilePath(folder)]);
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('loadSettings hung on a FIFO')), 5000)));
    const loaded = await Promise.race([loadSettings(folder), hung]).finally(() => clearTimeout(timer));
    expect(loaded.settings).toEqual(defaultSettings());
    expect(loaded.warnings[0]?.issues[0]?.message).toContain('a FIFO');
  });
});

describe('saveSettings', () => {
  it('replaces the file whole and leaves no temp file behind', async () => {
    await saveSettings(folder, { ...defaultSettings(), theme: 'light' });
    await saveSettings(folder, { ...defaultSettings(), theme: 'dark' });
    expect(await readdir(folder)).toEqual(['settings.json']);
    expect(JSON.parse(await readFile(settingsFilePath(folder), 'utf8')).theme).toBe('dark');
  });

  it('creates the user data folder when it does not exist yet', async () => {
    const nested = join(folder, 'Distributor Inspector');
    expect(await saveSettings(nested, defaultSettings())).toEqual({ ok: true, value: undefined });
    expect((await loadSettings(nested)).warnings).toEqual([]);
  });

  it('returns a warning instead of throwing when the folder cannot be written', async () => {
    // A regular file where the folder should be: unwritable even for root, on every platform.
    const blocker = join(folder, 'not-a-folder');
    await writeFile(blocker, 'x');
    const result = await saveSettings(join(blocker, 'userData'), defaultSettings());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('settings_not_saved');
    expect(result.error.message).toMatch(/settings\.json could not be saved \((ENOTDIR|EEXIST)\)/);
    expect(await readdir(folder)).toEqual(['not-a-folder']);
  });

  it('refuses settings that would not load again', async () => {
    const result = await saveSettings(folder, { ...defaultSettings(), theme: 'neon' as 'dark' });
    expect(result.ok).toBe(false);
    expect(await readdir(folder)).toEqual([]);
  });

  it('still reports a corrupt file when it cannot be moved aside, and never throws', async () => {
    await writeFile(settingsFilePath(folder), '{');
    // A non-empty folder already holds the name the file would be moved to.
    await mkdir(join(folder, corruptFileName(fixedNow()), 'inside'), { recursive: true });
    const loaded = await loadSettings(folder, fixedNow);
    expect(loaded.settings).toEqual(defaultSettings());
    expect(loaded.warnings[0]?.code).toBe('settings_reset');
    expect(loaded.warnings[0]?.movedTo).toBeUndefined();
    expect(loaded.warnings[0]?.message).toContain('could not be moved aside');
  });
});

describe('rememberWorkspace', () => {
  it('puts the newest first, without duplicates, and keeps at most the limit', () => {
    let settings = defaultSettings();
    for (const path of ['/a', '/b', '/c', '/b']) settings = rememberWorkspace(settings, path, 3);
    expect(settings.recentWorkspaces).toEqual(['/b', '/c', '/a']);
    settings = rememberWorkspace(settings, '/d', 3);
    expect(settings.recentWorkspaces).toEqual(['/d', '/b', '/c']);
  });
});

describe('restorableBounds', () => {
  const laptop = { x: 0, y: 0, width: 1440, height: 875 };
  const external = { x: 1440, y: -200, width: 2560, height: 1400 };

  it('restores bounds that are on a screen', () => {
    const saved = { x: 100, y: 50, width: 1000, height: 700 };
    expect(restorableBounds(saved, [laptop])).toEqual(saved);
  });

  it('drops bounds saved on a monitor that is no longer connected', () => {
    expect(restorableBounds({ x: 2000, y: 0, width: 1200, height: 800 }, [laptop])).toBeUndefined();
    expect(restorableBounds({ x: 2000, y: 0, width: 1200, height: 800 }, [laptop, external])).toEqual({
      x: 2000,
      y: 0,
      width: 1200,
      height: 800,
    });
  });

  it('drops bounds whose title bar is above the screen, where it cannot be grabbed', () => {
    expect(restorableBounds({ x: 100, y: -500, width: 800, height: 600 }, [laptop])).toBeUndefined();
  });

  it('shrinks a window larger than the screen it lands on', () => {
    expect(restorableBounds({ x: 0, y: 0, width: 3000, height: 2000, maximized: true }, [laptop])).toEqual({
      x: 0,
      y: 0,
      width: 1440,
      height: 875,
      maximized: true,
    });
  });

  it('opens centred when nothing was saved', () => {
    expect(restorableBounds(undefined, [laptop])).toBeUndefined();
  });
});

describe('createSettingsStore', () => {
  it('applies changes at once and leaves the last of several quick changes on disk', async () => {
    const store = createSettingsStore(folder, defaultSettings(), () => undefined);
    const heard: string[] = [];
    store.onChange((settings) => heard.push(settings.theme));
    const saves = [
      store.update((s) => ({ ...s, theme: 'light' })),
      store.update((s) => ({ ...s, theme: 'dark' })),
      store.workspaceOpened('/srv/a'),
    ];
    expect(store.current()).toMatchObject({ theme: 'dark', recentWorkspaces: ['/srv/a'] });
    await Promise.all(saves);
    expect(heard).toEqual(['light', 'dark', 'dark']);
    expect((await loadSettings(folder)).settings).toEqual({ theme: 'dark', recentWorkspaces: ['/srv/a'] });
  });

  it('drops a recent workspace that failed to open, and leaves others alone', async () => {
    const store = createSettingsStore(folder, { ...defaultSettings(), recentWorkspaces: ['/srv/gone', '/srv/here'] }, () => undefined);
    await store.workspaceFailed('/srv/gone');
    await store.workspaceFailed('/srv/never-listed');
    expect(store.current().recentWorkspaces).toEqual(['/srv/here']);
    expect((await loadSettings(folder)).settings.recentWorkspaces).toEqual(['/srv/here']);
  });

  it('reports a save that failed and keeps the change in memory', async () => {
    const blocker = join(folder, 'file');
    await writeFile(blocker, 'x');
    const failures: string[] = [];
    const store = createSettingsStore(join(blocker, 'userData'), defaultSettings(), (warning) => failures.push(warning.code));
    await store.update((s) => ({ ...s, theme: 'light' }));
    expect(failures).toEqual(['settings_not_saved']);
    expect(store.current().theme).toBe('light');
  });
});
