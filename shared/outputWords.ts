// What a verified output that is not ok looks like on disk, in words: one wording for the CLI's
// text and the renderer's Outputs tab. Pure; never shortens a hash (the operator compares them).

import type { FileKind, OutputVerification } from './verifyReport';

const KIND_WORDS: Record<FileKind, string> = {
  file: 'a regular file',
  directory: 'a directory',
  symlink: 'a symbolic link',
  fifo: 'a FIFO (named pipe)',
  socket: 'a socket',
  block_device: 'a block device',
  character_device: 'a character device',
  link_in_path: 'a path through a symbolic link',
  other: 'something that is not a regular file',
};

/** "a directory", "a symbolic link to ../x (not followed)", …: what stands where a file was recorded. */
export function whatStandsThere(output: OutputVerification): string {
  const kind = output.actual?.kind;
  if (kind === undefined) return 'something that is not a regular file';
  if (kind === 'link_in_path') return 'a path through a symbolic link: a parent folder is a link (not followed)';
  if (kind === 'symlink')
    return output.actual?.linkTarget === undefined
      ? 'a symbolic link (not followed; its target could not be read)'
      : `a symbolic link to ${output.actual.linkTarget} (not followed)`;
  return KIND_WORDS[kind];
}

/** One line saying how an output differs from its record: actual beside recorded. */
export function describeOutputProblem(output: OutputVerification): string {
  switch (output.status) {
    case 'missing':
      return 'missing: nothing stands at this path';
    case 'size_mismatch':
      return `size on disk ${output.actual?.size ?? 'unknown'} bytes, recorded ${output.expected?.size ?? 'unknown'} bytes`;
    case 'hash_mismatch':
      if (output.error) return `could not be read: ${output.error}`;
      return `content changed: sha256 on disk ${output.actual?.sha256 ?? 'unknown'}, recorded ${output.expected?.sha256 ?? 'unknown'}`;
    case 'not_a_file':
      return `not a regular file: ${whatStandsThere(output)}`;
    default:
      return 'ok';
  }
}
