// The user's own folders for the app, per platform: the cache (the demo) and the state (the user's
// history journal). XDG first where its variable is absolute, as the XDG base directory spec says a
// relative one is to be ignored. Pure: the environment, home and platform are passed in.

import path from 'node:path';

export const APP_FOLDER = 'distributor-inspector';

const XDG = { cache: 'XDG_CACHE_HOME', state: 'XDG_STATE_HOME' } as const;
const UNIX_DEFAULT = { cache: ['.cache'], state: ['.local', 'state'] } as const;
const MAC_DEFAULT = { cache: ['Library', 'Caches'], state: ['Library', 'Application Support'] } as const;

/** `<cache or state folder>/distributor-inspector`. */
export function userAppFolder(
  kind: 'cache' | 'state',
  env: Record<string, string | undefined>,
  home: string,
  platform: NodeJS.Platform,
): string {
  const xdg = env[XDG[kind]];
  let base: string;
  if (xdg && path.isAbsolute(xdg)) base = xdg;
  else if (platform === 'darwin') base = path.join(home, ...MAC_DEFAULT[kind]);
  else if (platform === 'win32')
    base = env.LOCALAPPDATA && path.win32.isAbsolute(env.LOCALAPPDATA) ? env.LOCALAPPDATA : path.join(home, 'AppData', 'Local');
  else base = path.join(home, ...UNIX_DEFAULT[kind]);
  return path.join(base, APP_FOLDER);
}
