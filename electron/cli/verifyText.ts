// Verify results as text for people: shared by `scan --verify` and `inspect --verify`.
// Shows what drifted and why; never lists thousands of ok outputs.

import type { OutputVerification, VerifyReport } from '../../shared/verifyReport';
import type { Style } from './style';
import { printable } from './terminalText';

const SHOWN_PER_LIST = 10;

function describeOutput(output: OutputVerification): string {
  switch (output.status) {
    case 'missing':
      return 'missing';
    case 'size_mismatch':
      return `size ${output.actual?.size ?? '?'} bytes, recorded ${output.expected?.size ?? '?'}`;
    case 'hash_mismatch':
      return output.error
        ? printable(output.error)
        : `content changed (sha256 ${printable(output.actual?.sha256?.slice(7, 19) ?? '?')}…, recorded ${printable(output.expected?.sha256.slice(7, 19) ?? '?')}…)`;
    case 'not_a_file':
      return output.actual?.kind === 'link_in_path'
        ? 'a parent folder is a symbolic link (not followed)'
        : `not a regular file: ${(output.actual?.kind ?? 'unknown').replace(/_/g, ' ')}${output.actual?.kind === 'symlink' ? ' (not followed)' : ''}`;
    default:
      return 'ok';
  }
}

function capped(lines: string[], indent: string): string[] {
  if (lines.length <= SHOWN_PER_LIST) return lines;
  return [...lines.slice(0, SHOWN_PER_LIST), `${indent}… and ${lines.length - SHOWN_PER_LIST} more`];
}

/** Lines describing a report: a headline, then each output that is not ok, then extra files. */
export function verifyLines(report: VerifyReport, style: Style, indent = '  '): string[] {
  const ok = report.outputs.filter((output) => output.status === 'ok').length;
  const headline =
    report.status === 'intact'
      ? `${style.green('✓ intact')}: ${ok} of ${report.outputs.length} outputs match their recorded hash and size`
      : `${style.red('✗ drifted')}: ${report.outputs.length - ok} of ${report.outputs.length} outputs differ from the state file`;
  const problems = report.outputs
    .filter((output) => output.status !== 'ok')
    .map((output) => `${indent}${style.red(output.status.padEnd(13))} ${printable(output.path)}: ${describeOutput(output)}`);
  const extra = report.extra.map((entry) => `${indent}${style.yellow('extra'.padEnd(13))} ${printable(entry)}`);
  const lines = [headline, ...capped(problems, indent), ...capped(extra, indent)];
  if (report.extra.length > 0)
    lines.push(
      `${indent}${style.dim(`${report.extra.length} extra file(s): not managed by distributor; they do not make the destination drifted`)}`,
    );
  return lines;
}
