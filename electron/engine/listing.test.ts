import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listDestination } from './listing';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'listing-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('listDestination', () => {
  it('lists a symbolic link to a folder as a link with its target, without descending into it', async () => {
    const outside = path.join(dir, 'outside');
    await fs.mkdir(path.join(outside, 'secret'), { recursive: true });
    await fs.writeFile(path.join(outside, 'secret', 'key.txt'), 'not for listing');
    const destination = path.join(dir, 'site');
    await fs.mkdir(path.join(destination, 'images'), { recursive: true });
    await fs.writeFile(path.join(destination, 'index.html'), '<p>hi</p>');
    await fs.writeFile(path.join(destination, 'images', 'a.gif'), 'GIF89a');
    await fs.symlink(outside, path.join(destination, 'elsewhere'));
    await fs.symlink('index.html', path.join(destination, 'home.html'));

    const listing = await listDestination(destination);

    expect(listing.truncated).toBe(false);
    expect(listing.entries).toEqual([
      { path: 'elsewhere', type: 'symlink', sizeBytes: 0, linkTarget: outside },
      { path: 'home.html', type: 'symlink', sizeBytes: 0, linkTarget: 'index.html' },
      { path: 'images', type: 'directory', sizeBytes: 0 },
      { path: 'images/a.gif', type: 'file', sizeBytes: 6 },
      { path: 'index.html', type: 'file', sizeBytes: 9 },
    ]);
  });

  it('stops at its cap and says so', async () => {
    for (const name of ['a', 'b', 'c', 'd']) await fs.writeFile(path.join(dir, name), name);
    const listing = await listDestination(dir, 3);
    expect(listing.entries.map((entry) => entry.path)).toEqual(['a', 'b', 'c']);
    expect(listing.truncated).toBe(true);
  });
});
