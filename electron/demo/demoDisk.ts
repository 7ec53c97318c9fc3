// Where the demo writes: every call names a path relative to the demo folder and is recorded, so that
// the demo's marker can list every path it wrote (and a re-run removes those, nothing else).
// A dry run keeps the bytes in memory: it tells which paths a real run will write, before it writes any.
// Never writes outside the demo folder: the relative paths come from the demo's own code, and are checked.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isCleanRelativePath } from '../../shared/cleanPath';

export interface DemoDisk {
  /** Creates missing parent folders. */
  writeFile(relative: string, bytes: Buffer | string): Promise<void>;
  appendFile(relative: string, text: string): Promise<void>;
  readFile(relative: string): Promise<Buffer>;
  /** Removes a file or a link the demo wrote a moment earlier. */
  removeFile(relative: string): Promise<void>;
  /** With its parents. */
  mkdir(relative: string): Promise<void>;
  symlink(target: string, relative: string): Promise<void>;
  /** Every path written so far (files, links and folders, parents included), relative, with `/`. */
  readonly recorded: ReadonlySet<string>;
}

/** `a/b/c` → `a`, `a/b`, `a/b/c`. */
function withParents(relative: string): string[] {
  const segments = relative.split('/');
  return segments.map((_, i) => segments.slice(0, i + 1).join('/'));
}

function checked(relative: string): string {
  if (!isCleanRelativePath(relative)) throw new Error(`demo: refusing to write ${JSON.stringify(relative)}: not a clean relative path`);
  return relative;
}

/** The real disk under `root`. */
export function realDemoDisk(root: string): DemoDisk {
  const recorded = new Set<string>();
  const record = (relative: string) => {
    for (const each of withParents(checked(relative))) recorded.add(each);
    return path.join(root, ...relative.split('/'));
  };
  return {
    recorded,
    async writeFile(relative, bytes) {
      const file = record(relative);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, bytes);
    },
    async appendFile(relative, text) {
      await fs.appendFile(record(relative), text);
    },
    readFile: (relative) => fs.readFile(path.join(root, ...checked(relative).split('/'))),
    async removeFile(relative) {
      await fs.unlink(record(relative));
    },
    async mkdir(relative) {
      await fs.mkdir(record(relative), { recursive: true });
    },
    async symlink(target, relative) {
      await fs.symlink(target, record(relative));
    },
  };
}

/** Records the same paths as realDemoDisk would, keeping the bytes in memory. */
export function dryRunDemoDisk(): DemoDisk {
  const recorded = new Set<string>();
  const files = new Map<string, Buffer>();
  const record = (relative: string) => {
    for (const each of withParents(checked(relative))) recorded.add(each);
    return relative;
  };
  return {
    recorded,
    writeFile: async (relative, bytes) => void files.set(record(relative), Buffer.from(bytes)),
    appendFile: async (relative, text) =>
      void files.set(record(relative), Buffer.concat([files.get(relative) ?? Buffer.alloc(0), Buffer.from(text)])),
    async readFile(relative) {
      const bytes = files.get(checked(relative));
      if (!bytes) throw new Error(`demo dry run: ${relative} was not written`);
      return bytes;
    },
    removeFile: async (relative) => void files.delete(record(relative)),
    mkdir: async (relative) => void record(relative),
    symlink: async (_target, relative) => void record(relative),
  };
}
