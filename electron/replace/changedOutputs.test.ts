import { describe, expect, it } from 'vitest';
import { changedOf } from './changedOutputs';

const recorded = { size: 3, sha256: `sha256:${'a'.repeat(64)}` };

describe('what a hash outcome says about a recorded output', () => {
  it('is unchanged only when the file has the recorded size and sha256', () => {
    expect(changedOf(recorded, { kind: 'file', size: 3, sha256: recorded.sha256 })).toBeUndefined();
    expect(changedOf(recorded, { kind: 'file', size: 3, sha256: `sha256:${'b'.repeat(64)}` })).toBe('hash_mismatch');
  });

  it('calls a file of another size (not read, so with no hash) a size mismatch', () => {
    expect(changedOf(recorded, { kind: 'file', size: 4 })).toBe('size_mismatch');
    expect(changedOf(recorded, { kind: 'file', size: 3 })).toBe('size_mismatch');
  });

  it('calls anything not read as a regular file not_a_file: gone, a link, a FIFO, a link on the way, an error', () => {
    for (const outcome of [
      { kind: 'missing' },
      { kind: 'symlink' },
      { kind: 'fifo' },
      { kind: 'link_in_path' },
      { kind: 'error', message: 'cannot be read (EACCES)' },
    ] as const)
      expect(changedOf(recorded, outcome), outcome.kind).toBe('not_a_file');
  });
});
