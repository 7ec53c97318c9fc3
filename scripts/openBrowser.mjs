// What `npm start` does with the browser host's address: whether to open it in the user's browser
// (only when a person is at a display and not in CI), with which command, and the words it prints.
// Pure decisions here; scripts/start.mjs does the spawning. Opening is a convenience: it never fails
// the start, and the address is printed either way.
import { spawn } from 'node:child_process';

/**
 * The command that opens an address in the default browser, or why none is run.
 * @returns {{ open: true, command: string, args: string[] } | { open: false, reason: string }}
 */
export function browserOpener(url, env = process.env, platform = process.platform) {
  if (env.CI && env.CI !== 'false' && env.CI !== '0') return { open: false, reason: 'CI is set' };
  if (platform === 'darwin') return { open: true, command: 'open', args: [url] };
  // `start` is a cmd built-in; its first quoted argument is the window title, hence the empty one.
  if (platform === 'win32') return { open: true, command: 'cmd', args: ['/c', 'start', '""', url] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { open: false, reason: 'there is no display' };
  return { open: true, command: 'xdg-open', args: [url] };
}

/** The first loopback address with its token in a line of `serve`'s output, or undefined. */
export function addressIn(line) {
  const plain = line.replace(/\x1b\[[0-9;]*m/g, '');
  return /https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+\/\S*/.exec(plain)?.[0];
}

/** The one line that tells the user what to do with the address, whether or not a browser was asked. */
export function addressLine(url, opened) {
  return opened ? `Opening it in your browser. If no page appears, open this address: ${url}` : `Open this address in your browser: ${url}`;
}

/**
 * Why the desktop window is not used, in words for someone who ran `npm start`: what is missing, not
 * which environment variable would change it (ELECTRON_OVERRIDE_DIST_PATH is named only when the
 * user set it and it points nowhere).
 */
export function fallbackReason(electron, display, env = process.env) {
  if (!electron.ok) {
    return env.ELECTRON_OVERRIDE_DIST_PATH ? electron.reason : 'the desktop window needs Electron, which is not installed here';
  }
  return display ? 'the desktop window is not available' : 'there is no display for a desktop window';
}

/** Runs the opener detached; any failure (no xdg-open, no browser) is silent by design. */
export function openInBrowser(url, env = process.env, platform = process.platform) {
  const opener = browserOpener(url, env, platform);
  if (!opener.open) return false;
  try {
    const child = spawn(opener.command, opener.args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
