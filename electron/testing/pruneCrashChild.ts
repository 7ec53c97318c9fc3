// A prune in a child process that SIGKILLs itself before its mutation k (a rename, an unlink or a
// rmdir, counted in the order they are asked for): what a prune killed at that point leaves on disk.
// Prints how many mutations it made when it ran to its end. For tests only.
// Usage: node pruneCrashChild.mjs SETTINGS_JSON DESTINATION_FOLDER K

import { promises } from 'node:fs';
import type { BackupSettings } from '../../shared/backupSchema';
import { pruneBackups } from '../backup/backupStore';

const [settingsJson, destinationFolder, killText] = process.argv.slice(2);
const killBefore = Number(killText);
let mutations = 0;
const mutable = promises as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
for (const name of ['rename', 'unlink', 'rmdir']) {
  const original = mutable[name]!;
  mutable[name] = (...args: unknown[]) => {
    if (++mutations === killBefore) process.kill(process.pid, 'SIGKILL');
    return original.apply(promises, args);
  };
}
await pruneBackups(JSON.parse(settingsJson!) as BackupSettings, destinationFolder);
process.stdout.write(String(mutations));
