// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutputVerification } from '../../shared/verifyReport';
import { OutputVerifyStatus } from './OutputVerifyStatus';

afterEach(cleanup);

const recorded = { sha256: `sha256:${'a'.repeat(64)}`, size: 3 };
const problem = (verified: OutputVerification) => {
  render(<OutputVerifyStatus verified={verified} />);
  return screen.getByTestId('output-problem').textContent;
};

describe('an output that failed verify', () => {
  it('shows the size on disk beside the recorded one', () => {
    expect(problem({ path: 'a.html', status: 'size_mismatch', expected: recorded, actual: { size: 6 } })).toBe(
      'size on disk 6 bytes, recorded 3 bytes',
    );
  });

  it('shows the full hash on disk beside the recorded one, with a button to copy it', () => {
    const actual = `sha256:${'b'.repeat(64)}`;
    expect(problem({ path: 'a.html', status: 'hash_mismatch', expected: recorded, actual: { sha256: actual, size: 3 } })).toContain(
      `sha256 on disk ${actual}, recorded ${recorded.sha256}`,
    );
    expect(screen.getByRole('button', { name: /sha256 on disk of a\.html/ })).toBeTruthy();
  });

  it('says what stands where a file was recorded: a directory, a link and its target, a FIFO', () => {
    expect(problem({ path: 'a', status: 'not_a_file', expected: recorded, actual: { kind: 'directory' } })).toBe(
      'not a regular file: a directory',
    );
    cleanup();
    expect(problem({ path: 'a', status: 'not_a_file', expected: recorded, actual: { kind: 'symlink', linkTarget: '/etc/passwd' } })).toBe(
      'not a regular file: a symbolic link to /etc/passwd (not followed)',
    );
    cleanup();
    expect(problem({ path: 'a', status: 'not_a_file', expected: recorded, actual: { kind: 'fifo' } })).toBe(
      'not a regular file: a FIFO (named pipe)',
    );
  });

  it('says nothing more than ok for an ok output', () => {
    render(<OutputVerifyStatus verified={{ path: 'a', status: 'ok', expected: recorded }} />);
    expect(screen.queryByTestId('output-problem')).toBeNull();
    expect(screen.getByText('ok')).toBeTruthy();
  });
});
