// Where a replace may create a missing destination: only as a new folder inside a real folder. The
// refusal says what the parent is instead: missing, a file (or FIFO, device), or a symbolic link, and
// then to where, with the real path to name instead. Reads only (lstat, readlink); never follows a
// link to decide, never creates anything.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { PlanRefusal } from '../../shared/plan';
import { describeFileKind } from '../engine/regularFile';

function errnoCode(cause: unknown): string | undefined {
  return (cause as NodeJS.ErrnoException | undefined)?.code;
}

/** Why a missing destination cannot be created where it is named, or undefined when its parent is a real folder. */
export async function missingDestinationParentRefusal(dest: string): Promise<PlanRefusal | undefined> {
  const parent = path.dirname(dest);
  const stat = await fs
    .lstat(parent)
    .catch((cause) => (['ENOENT', 'ENOTDIR'].includes(errnoCode(cause) ?? '') ? undefined : Promise.reject(cause)));
  if (stat?.isDirectory()) return undefined;
  if (!stat)
    return {
      code: 'destination_parent_missing',
      message: `${dest} does not exist, and neither does its parent folder ${parent}; a replace creates only the destination folder itself`,
      details: { destination: dest, parent },
    };
  if (stat.isSymbolicLink()) {
    const target = await fs.readlink(parent).catch(() => undefined);
    const real = await fs.realpath(parent).catch(() => undefined);
    const to = target === undefined ? '' : ` (to ${target})`;
    const instead = real ? `; name the real folder instead: ${path.join(real, path.basename(dest))}` : '; the link leads nowhere';
    return {
      code: 'destination_parent_is_symlink',
      message: `${dest} does not exist, and its parent folder ${parent} is a symbolic link${to}: a replace never creates a destination through a link, so that what it deletes later cannot be redirected${instead}`,
      details: {
        destination: dest,
        parent,
        ...(target !== undefined ? { linkTarget: target } : {}),
        ...(real ? { realParent: real } : {}),
      },
    };
  }
  return {
    code: 'destination_parent_not_directory',
    message: `${dest} does not exist, and its parent ${parent} is ${describeFileKind(stat)}, not a folder`,
    details: { destination: dest, parent },
  };
}
