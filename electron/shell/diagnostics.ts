// The text behind Help › Copy diagnostics: what a maintainer needs to reproduce a report (versions,
// platform, what kind of workspace), and nothing else. Pure: the shell passes in what Electron and
// Node report. Must never include a path, a user or host name, environment variables or file contents.

/** What the app calls itself in menus, dialogs and reports (electron-builder.yml's productName). */
export const PRODUCT_NAME = 'Distributor Inspector';

export interface DiagnosticsInput {
  productName: string;
  appVersion: string;
  packaged: boolean;
  /** `process.versions`: only the electron, chrome, node and v8 entries are used. */
  versions: Partial<Record<'electron' | 'chrome' | 'node' | 'v8', string>>;
  platform: string;
  arch: string;
  /** `os.release()`: the kernel or OS build, useful for file system behaviour. */
  osRelease?: string;
  locale?: string;
  /** The open workspace, by kind only: where it is stays on the operator's machine. */
  workspace?: { kind: 'folder' | 'file' | 'demo'; destinationCount?: number };
}

const PLATFORM_NAMES: Record<string, string> = { darwin: 'macOS', linux: 'Linux', win32: 'Windows' };

// A version string is short and made of version characters; anything else is not printed.
function version(value: string | undefined): string {
  return value !== undefined && /^[0-9A-Za-z.+_-]{1,40}$/.test(value) ? value : 'unknown';
}

export function buildDiagnostics(input: DiagnosticsInput): string {
  const platformName = PLATFORM_NAMES[input.platform] ?? input.platform;
  const workspace = input.workspace
    ? `${input.workspace.kind}${input.workspace.destinationCount === undefined ? '' : `, ${input.workspace.destinationCount} destination${input.workspace.destinationCount === 1 ? '' : 's'}`}`
    : 'none open';
  const lines = [
    `${input.productName} ${version(input.appVersion)} (${input.packaged ? 'packaged' : 'development'})`,
    `Electron ${version(input.versions.electron)}, Chrome ${version(input.versions.chrome)}, Node ${version(input.versions.node)}, V8 ${version(input.versions.v8)}`,
    `Platform: ${platformName} ${version(input.osRelease)} ${version(input.arch)}`,
    `Workspace: ${workspace}`,
  ];
  if (input.locale !== undefined)
    lines.push(`Locale: ${/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/.test(input.locale) ? input.locale : 'unknown'}`);
  return `${lines.join('\n')}\n`;
}
