// How an operator runs this very tool from where they are, for every hint the app and the CLI print
// (issue 28 point 16): `distributor-inspector` when the one on PATH is this package's bin (their
// realpaths match), else `node /abs/…/bin/distributor-inspector.js`, shell-quoted. Never `npx` of the
// name: outside the checkout npx asks the public registry, and would run someone else's package if
// that name is ever taken. Reads PATH and the file system only; the answer is kept per PATH.

import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMAND_NAME } from '../../shared/commandName';
import { shellCommand } from '../../shared/shellQuote';

const BIN = path.join('bin', `${COMMAND_NAME}.js`);

/**
 * This package's bin/distributor-inspector.js: found above the running module (electron/engine/ from
 * the sources, dist/ when built), so it holds however the package is laid out.
 */
export function packageBin(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (let up = 0; up < 5; up++) {
    const candidate = path.join(dir, BIN);
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  return path.resolve(from, '..', '..', BIN);
}

function realpathOf(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/** Whether the first `distributor-inspector` on `pathVariable` is `bin` (through links: npm link, npm install --global). */
export function isOnPath(bin: string, pathVariable: string | undefined, platform: NodeJS.Platform = process.platform): boolean {
  const real = realpathOf(bin);
  if (!real || !pathVariable) return false;
  const names = platform === 'win32' ? [`${COMMAND_NAME}.cmd`, COMMAND_NAME] : [COMMAND_NAME];
  for (const dir of pathVariable.split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    for (const name of names) {
      const found = realpathOf(path.join(dir, name));
      // The first one found is the one the shell runs: another package's is not ours.
      if (found !== undefined) return found === real;
    }
  }
  return false;
}

/** The command's words: the bare name when PATH runs this package's bin, else node and its absolute path. */
export function commandWords(env: NodeJS.ProcessEnv = process.env, bin: string = packageBin()): string[] {
  return isOnPath(bin, env.PATH) ? [COMMAND_NAME] : ['node', bin];
}

const cache = new Map<string, string>();

/** The command as the operator types it, shell-quoted: the start of every printed hint. */
export function installedCommand(env: NodeJS.ProcessEnv = process.env, bin: string = packageBin()): string {
  const key = `${bin}\0${env.PATH ?? ''}`;
  let text = cache.get(key);
  if (text === undefined) {
    text = shellCommand(commandWords(env, bin));
    cache.set(key, text);
  }
  return text;
}
