// Where an Electron binary is, without ever loading the `electron` package (its index.js downloads
// one when it is missing, which must never happen here). ELECTRON_OVERRIDE_DIST_PATH wins, then
// node_modules/electron/dist. Returns a reason in words when there is none.
import { existsSync } from 'node:fs';
import path from 'node:path';

export function platformExecutable(platform = process.platform) {
  if (platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

/** @param {string} root the repository @returns {{ ok: true, path: string } | { ok: false, reason: string }} */
export function findElectronBinary(root, env = process.env) {
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const candidate = path.join(override, platformExecutable());
    return existsSync(candidate)
      ? { ok: true, path: candidate }
      : { ok: false, reason: `ELECTRON_OVERRIDE_DIST_PATH is set, but ${candidate} does not exist` };
  }
  const candidate = path.join(root, 'node_modules', 'electron', 'dist', platformExecutable());
  return existsSync(candidate)
    ? { ok: true, path: candidate }
    : {
        ok: false,
        reason: `no Electron binary is installed (${path.relative(root, candidate)} is missing; set ELECTRON_OVERRIDE_DIST_PATH to an Electron dist folder to use one)`,
      };
}

/** Linux needs a display server for a window; elsewhere there always is one. */
export function hasDisplay(env = process.env, platform = process.platform) {
  return platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}
