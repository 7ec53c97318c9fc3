// Types of openBrowser.mjs, for the TypeScript that imports it (scripts/openBrowser.test.ts).
export function browserOpener(
  url: string,
  env?: NodeJS.ProcessEnv,
  platform?: NodeJS.Platform,
): { open: true; command: string; args: string[] } | { open: false; reason: string };
export function addressIn(line: string): string | undefined;
export function addressLine(url: string, opened: boolean): string;
export function fallbackReason(
  electron: { ok: true; path: string } | { ok: false; reason: string },
  display: boolean,
  env?: NodeJS.ProcessEnv,
): string;
export function openInBrowser(url: string, env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): boolean;
