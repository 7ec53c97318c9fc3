// The session's own per-user preferences (today: auto-verify on or off), one small JSON file: for
// the browser host in the user's state folder, for the desktop app beside its settings.json. Read once
// when the Session starts (synchronously: the first workspace opens right after, and its auto-verify
// must already obey it); written atomically (temp file, rename). A missing, unreadable or invalid file
// is the defaults, never fatal; a failed write loses only the preference.

import { randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { userAppFolder } from '../engine/userFolders';

export const PREFERENCES_FILE_NAME = 'preferences.json';

// Loose: a field written by a newer version survives a downgrade and a save.
const preferencesSchema = z.looseObject({ autoVerify: z.boolean().optional() });
export type Preferences = z.infer<typeof preferencesSchema>;

/** The browser host's file: `$XDG_STATE_HOME/distributor-inspector/preferences.json` (and the platform equivalents). */
export function userPreferencesFile(env: Record<string, string | undefined> = process.env): string {
  return path.join(userAppFolder('state', env, os.homedir(), process.platform), PREFERENCES_FILE_NAME);
}

export function readPreferences(file: string): Preferences {
  try {
    const checked = preferencesSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return checked.success ? checked.data : {};
  } catch {
    return {};
  }
}

/** Merges `change` into what the file holds now and writes it by rename; false when it could not be written. */
export async function savePreferences(file: string, change: Preferences): Promise<boolean> {
  const body = { ...readPreferences(file), ...change };
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(temp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
    await fs.rename(temp, file);
    return true;
  } catch {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    return false;
  }
}
