// The built renderer (dist/renderer) as a fixed set of files: a request path is looked up in an index
// of what is there, never joined onto the folder, so no path can reach outside it. Never follows a
// symbolic link in the folder and never serves a dotfile.

import { promises as fs } from 'node:fs';
import path from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

async function walk(root: string, relative: string, found: Map<string, string>): Promise<void> {
  const entries = await fs.readdir(path.join(root, relative), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    // Dirent types come from the directory: a symbolic link is neither a file nor a directory here.
    if (entry.isDirectory()) await walk(root, child, found);
    else if (entry.isFile()) found.set(`/${child}`, path.join(root, child));
  }
}

export interface StaticFiles {
  /** The file for a URL path (`/` is index.html), or undefined. */
  lookup(urlPath: string): Promise<string | undefined>;
  hasIndex(): Promise<boolean>;
}

/** Re-reads the folder at most once per `refreshMs` when a path is missing (a rebuild while serving). */
export function staticFiles(root: string, refreshMs = 1000): StaticFiles {
  let index = new Map<string, string>();
  let indexedAt = -Infinity;
  const refresh = async (force: boolean) => {
    if (!force && Date.now() - indexedAt < refreshMs) return;
    const next = new Map<string, string>();
    await walk(root, '', next);
    index = next;
    indexedAt = Date.now();
  };
  const find = async (key: string) => {
    if (!index.has(key)) await refresh(indexedAt === -Infinity);
    return index.get(key);
  };
  return {
    async lookup(urlPath) {
      return find(urlPath === '/' ? '/index.html' : urlPath);
    },
    async hasIndex() {
      return (await find('/index.html')) !== undefined;
    },
  };
}
