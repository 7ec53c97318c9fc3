// Verify results as text for people: shared by `scan --verify` and `inspect --verify`.
// Shows what drifted and why; never lists thousands of ok outputs.

import { describeOutputProblem } from '../../shared/outputWords';
import type { VerifyReport } from '../../shared/verifyReport';
import type { Style } from './style';
import { printable } from './terminalText';

const SHOWN_PER_LIST = 10;

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
    .map(
      (output) => `${indent}${style.red(output.status.padEnd(13))} ${printable(output.path)}: ${printable(describeOutputProblem(output))}`,
    );
  const extra = report.extra.map((entry) => `${indent}${style.yellow('extra'.padEnd(13))} ${printable(entry)}`);
  const lines = [headline, ...capped(problems, indent), ...capped(extra, indent)];
  if (report.extra.length > 0)
    lines.push(
      `${indent}${style.dim(`${report.extra.length} extra file${report.extra.length === 1 ? '' : 's'}: not managed by distributor; they do not make the destination drifted`)}`,
    );
  return lines;
}
