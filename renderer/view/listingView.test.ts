import { describe, expect, it } from 'vitest';
import { entryKind, listingSentence, summarizeListing } from './listingView';

const listing = {
  truncated: false,
  entries: [
    { path: 'images', type: 'directory' as const, sizeBytes: 0 },
    { path: 'images/banner.gif', type: 'file' as const, sizeBytes: 6 },
    { path: 'index.html', type: 'file' as const, sizeBytes: 70 },
    { path: 'old', type: 'symlink' as const, sizeBytes: 0, linkTarget: '../elsewhere' },
  ],
};

describe('what a destination holds, in words', () => {
  it('counts every entry by kind and sums the file sizes', () => {
    const summary = summarizeListing(listing, 10);
    expect(summary).toMatchObject({ total: 4, files: 2, directories: 1, symlinks: 1, other: 0, fileBytes: 76 });
    expect(listingSentence(summary)).toBe('4 entries: 2 files (76 B), 1 folder, 1 symbolic link.');
  });

  it('shows the top of the tree first: a folder’s own entries before what is deeper', () => {
    expect(summarizeListing(listing, 3).first.map((entry) => entry.path)).toEqual(['images', 'index.html', 'old']);
  });

  it('never calls a capped listing’s count exact', () => {
    const sentence = listingSentence(summarizeListing({ ...listing, truncated: true }, 2));
    expect(sentence).toBe('At least 4 entries (the listing stops there): 2 files (76 B), 1 folder, 1 symbolic link among those listed.');
  });

  it('names a symbolic link’s target and says it was not followed', () => {
    expect(entryKind(listing.entries[3]!)).toBe('symbolic link to ../elsewhere (not followed)');
    expect(entryKind(listing.entries[0]!)).toBe('folder');
  });

  it('says one entry in the singular', () => {
    expect(listingSentence(summarizeListing({ truncated: false, entries: [listing.entries[2]!] }, 5))).toBe('1 entry: 1 file (70 B).');
  });
});
