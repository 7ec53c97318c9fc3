// The desktop app's settings file (`settings.json` in the user data folder): recent workspaces, the
// theme override and the window bounds. Validated with zod on load; written atomically (temp file,
// fsync, rename). A corrupt or invalid file is moved aside and reported as a warning, never fatal:
// this module must never throw on what it finds on disk, and never import Electron.

import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { error, formatIssuePath, type Issue } from '../../shared/issues';
import { parseJsonObject } from '../../shared/parseDocument';
import { fromZodIssues } from '../../shared/zodIssues';
import type { Result } from '../../shared/result';
import { readRegularFile } from '../engine/regularFile';

export const SETTINGS_FILE_NAME = 'settings.json';
export const MAX_RECENT_WORKSPACES = 10;

export const themeSchema = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof themeSchema>;

const coordinate = z.number().int().min(-100_000).max(100_000);
const extent = z.number().int().min(1).max(100_000);

export const windowBoundsSchema = z.object({
  x: coordinate,
  y: coordinate,
  width: extent,
  height: extent,
  maximized: z.boolean().optional(),
});
export type WindowBounds = z.infer<typeof windowBoundsSchema>;

// Loose on purpose: fields written by a newer version of the app survive a downgrade and a save.
export const settingsSchema = z.looseObject({
  recentWorkspaces: z.array(z.string().min(1).max(4096)).max(100).default([]),
  theme: themeSchema.default('system'),
  windowBounds: windowBoundsSchema.optional(),
});
export type Settings = z.infer<typeof settingsSchema>;

export function defaultSettings(): Settings {
  return { recentWorkspaces: [], theme: 'system' };
}

/** Something the operator should hear about; the app goes on with defaults. */
export interface SettingsWarning {
  code: 'settings_reset' | 'settings_unreadable' | 'settings_not_saved';
  /** One sentence for the UI that names the file and what was done about it. */
  message: string;
  /** Where the bad file went, when it could be moved. */
  movedTo?: string;
  /** The problems found in the file, each naming its field. */
  issues: Issue[];
}

export interface LoadedSettings {
  settings: Settings;
  warnings: SettingsWarning[];
}

/** Saved, or the warning the app shows (it keeps running with what it has). */
export type SaveResult = Result<void, SettingsWarning>;

export function settingsFilePath(folder: string): string {
  return join(folder, SETTINGS_FILE_NAME);
}

/** A file name that sorts by time and is valid on every platform (no `:`). */
export function corruptFileName(now: Date): string {
  return `${SETTINGS_FILE_NAME}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
}

function causeText(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (cause instanceof Error ? cause.message : String(cause));
}

/** Checks parsed JSON against the schema; the issues name each field. Pure. */
export function parseSettings(text: string): Result<Settings, Issue[]> {
  const document = parseJsonObject(text);
  if (!document.ok) return { ok: false, error: [document.error] };
  const parsed = settingsSchema.safeParse(document.value.json);
  if (!parsed.success) return { ok: false, error: fromZodIssues(parsed.error.issues, document.value.json) };
  return { ok: true, value: parsed.data };
}

/**
 * Reads `settings.json` from `folder`. A missing file gives the defaults silently; an unreadable,
 * corrupt or invalid one gives the defaults and a warning, and an invalid one is moved aside to
 * `settings.json.corrupt-<timestamp>` so the next save does not destroy what the operator had.
 */
export async function loadSettings(folder: string, now: () => Date = () => new Date()): Promise<LoadedSettings> {
  const file = settingsFilePath(folder);
  let text: string;
  try {
    // Only a regular file, opened non-blocking: a FIFO in its place must not hold the app's start.
    const read = await readRegularFile(file, { followLinks: true });
    if (read.kind === 'missing') return { settings: defaultSettings(), warnings: [] };
    if (read.kind !== 'bytes') throw new Error(read.kind === 'not_a_file' ? `it is ${read.what}` : read.kind);
    text = read.bytes.toString('utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return { settings: defaultSettings(), warnings: [] };
    const issue = error([], 'unreadable', `cannot read ${file}: ${causeText(cause)}`);
    return {
      settings: defaultSettings(),
      warnings: [
        {
          code: 'settings_unreadable',
          message: `${SETTINGS_FILE_NAME} could not be read (${causeText(cause)}); default settings are in use.`,
          issues: [issue],
        },
      ],
    };
  }
  const parsed = parseSettings(text);
  if (parsed.ok) return { settings: parsed.value, warnings: [] };

  const first = parsed.error[0];
  const what = first ? `${first.path.length > 0 ? `${formatIssuePath(first.path)}: ` : ''}${first.message}` : 'invalid';
  const aside = join(folder, corruptFileName(now()));
  try {
    await rename(file, aside);
  } catch (cause) {
    return {
      settings: defaultSettings(),
      warnings: [
        {
          code: 'settings_reset',
          message: `${SETTINGS_FILE_NAME} is invalid (${what}) and could not be moved aside (${causeText(cause)}); default settings are in use.`,
          issues: parsed.error,
        },
      ],
    };
  }
  return {
    settings: defaultSettings(),
    warnings: [
      {
        code: 'settings_reset',
        message: `${SETTINGS_FILE_NAME} is invalid (${what}); it was moved aside to ${basename(aside)} and default settings are in use.`,
        movedTo: aside,
        issues: parsed.error,
      },
    ],
  };
}

/**
 * Writes the settings atomically: a temp file in the same folder, fsync, rename over the old file,
 * then fsync of the folder where the platform allows it. A reader sees the old file or the new one,
 * never half of one. Failure is returned, not thrown: the app keeps running with what it has.
 */
export async function saveSettings(folder: string, settings: Settings): Promise<SaveResult> {
  const checked = settingsSchema.safeParse(settings);
  if (!checked.success) {
    const issues = fromZodIssues(checked.error.issues, settings);
    return {
      ok: false,
      error: { code: 'settings_not_saved', message: `settings not saved: ${issues[0]?.message ?? 'invalid'}`, issues },
    };
  }
  const file = settingsFilePath(folder);
  const temp = join(folder, `.${SETTINGS_FILE_NAME}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await mkdir(folder, { recursive: true });
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(checked.data, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (cause) {
    await rm(temp, { force: true }).catch(() => undefined);
    const issue = error([], 'not_written', `cannot write ${file}: ${causeText(cause)}`);
    return {
      ok: false,
      error: { code: 'settings_not_saved', message: `${SETTINGS_FILE_NAME} could not be saved (${causeText(cause)}).`, issues: [issue] },
    };
  }
  await syncFolder(folder);
  return { ok: true, value: undefined };
}

// Makes the rename itself durable. Windows cannot open a folder for fsync; the rename is still atomic.
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort only
  }
}

/** The workspace just opened goes first; no duplicates; the list stays short. Pure. */
export function rememberWorkspace(settings: Settings, workspacePath: string, max = MAX_RECENT_WORKSPACES): Settings {
  const rest = settings.recentWorkspaces.filter((entry) => entry !== workspacePath);
  return { ...settings, recentWorkspaces: [workspacePath, ...rest].slice(0, max) };
}

export function forgetWorkspace(settings: Settings, workspacePath: string): Settings {
  return { ...settings, recentWorkspaces: settings.recentWorkspaces.filter((entry) => entry !== workspacePath) };
}

/** The settings in memory, saved on every change, one save after another (never interleaved). */
export interface SettingsStore {
  current(): Settings;
  /** Applies a change at once (listeners hear it) and resolves when it is on disk or reported. */
  update(change: (settings: Settings) => Settings): Promise<void>;
  onChange(listener: (settings: Settings) => void): void;
  /** A workspace opened: it goes first in the recent list. */
  workspaceOpened(workspacePath: string): Promise<void>;
  /** A recent workspace that no longer opens leaves the list (as editors do with missing files). */
  workspaceFailed(workspacePath: string): Promise<void>;
}

export function createSettingsStore(folder: string, initial: Settings, onSaveFailed: (warning: SettingsWarning) => void): SettingsStore {
  let settings = initial;
  const listeners: ((settings: Settings) => void)[] = [];
  let saving: Promise<void> = Promise.resolve();
  const update = (change: (settings: Settings) => Settings): Promise<void> => {
    settings = change(settings);
    const snapshot = settings;
    for (const listener of listeners) listener(snapshot);
    // Chained: a slow save can never land after, and overwrite, a newer one.
    saving = saving.then(async () => {
      const result = await saveSettings(folder, snapshot);
      if (!result.ok) onSaveFailed(result.error);
    });
    return saving;
  };
  return {
    current: () => settings,
    update,
    onChange: (listener) => void listeners.push(listener),
    workspaceOpened: (workspacePath) => update((current) => rememberWorkspace(current, workspacePath)),
    workspaceFailed: (workspacePath) =>
      settings.recentWorkspaces.includes(workspacePath) ? update((current) => forgetWorkspace(current, workspacePath)) : saving,
  };
}

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How much of a window must be on a screen to be grabbed by its title bar. */
const MIN_VISIBLE = { width: 120, height: 40 };

/**
 * Saved bounds to restore, or undefined to let the window open centred: a window saved on a
 * monitor that is gone must not reopen off screen. The size is clamped to the work area it lands on.
 * Pure: the caller passes the displays' work areas (Electron's `screen.getAllDisplays()`).
 */
export function restorableBounds(saved: WindowBounds | undefined, workAreas: readonly Rectangle[]): WindowBounds | undefined {
  if (!saved) return undefined;
  // The title bar strip decides: that is what the operator needs on screen to move the window.
  const titleBar: Rectangle = { x: saved.x, y: saved.y, width: saved.width, height: Math.min(saved.height, MIN_VISIBLE.height) };
  const area = workAreas.find((candidate) => {
    const overlapWidth = Math.min(titleBar.x + titleBar.width, candidate.x + candidate.width) - Math.max(titleBar.x, candidate.x);
    const overlapHeight = Math.min(titleBar.y + titleBar.height, candidate.y + candidate.height) - Math.max(titleBar.y, candidate.y);
    return overlapWidth >= Math.min(MIN_VISIBLE.width, titleBar.width) && overlapHeight >= Math.min(MIN_VISIBLE.height, titleBar.height);
  });
  if (!area) return undefined;
  return { ...saved, width: Math.min(saved.width, area.width), height: Math.min(saved.height, area.height) };
}
