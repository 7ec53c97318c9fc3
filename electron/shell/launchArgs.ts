// Which workspace the desktop app was started on: `--workspace=PATH` / `--workspace PATH`, or the
// first plain argument (what a file manager passes when a workspace file is opened with the app).
// Pure; argv comes in. Never treats a Chromium or Electron switch, or the app's own folder, as a path.

import path from 'node:path';

export function workspaceFromArgv(argv: readonly string[], isPackaged: boolean, appPath?: string): string | undefined {
  // argv[0] is the binary. In development the app folder follows (`electron .`), but launchers such
  // as Playwright put switches before it, so it is recognised by path rather than by position.
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('--workspace=')) return arg.slice('--workspace='.length) || undefined;
    if (arg === '--workspace') return args[i + 1];
  }
  const plain = args.filter((arg) => !arg.startsWith('-'));
  if (isPackaged) return plain[0];
  const appFolder = appPath === undefined ? undefined : path.resolve(appPath);
  // Without the app path, the first plain argument is taken to be the app folder.
  return appFolder === undefined ? plain[1] : plain.find((arg) => path.resolve(arg) !== appFolder);
}
