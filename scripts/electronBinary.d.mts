// Types of electronBinary.mjs, for the TypeScript that imports it (e2e/fixtures.ts).
export function platformExecutable(platform?: NodeJS.Platform): string;
export function findElectronBinary(root: string, env?: NodeJS.ProcessEnv): { ok: true; path: string } | { ok: false; reason: string };
export function hasDisplay(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): boolean;
