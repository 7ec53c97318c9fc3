// Which workspace the desktop app was started on: `--workspace=PATH` / `--workspace PATH`, or the
// first plain argument after the app (what a file manager passes when a workspace file is opened).
// Pure; argv comes in. Never treats a Chromium or Electron switch as a path.

export function workspaceFromArgv(argv: readonly string[], isPackaged: boolean): string | undefined {
  // argv[0] is the binary; in development argv[1] is the app folder (`electron .`).
  const args = argv.slice(isPackaged ? 1 : 2);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('--workspace=')) return arg.slice('--workspace='.length) || undefined;
    if (arg === '--workspace') return args[i + 1];
  }
  return args.find((arg) => !arg.startsWith('-'));
}
