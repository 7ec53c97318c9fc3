// A comparison for people: the decision in words, then the manifest diff with counts.
// Layout only; the decision and its words come from the compare use case (operations/).

import type { Comparison } from '../../shared/compare';
import type { ComparisonWords } from '../../shared/comparisonWords';
import type { ManifestDiff } from '../../shared/diffManifests';
import type { OutputDrift } from '../../shared/outputDrift';
import { table, type Style } from './style';
import { printable } from './terminalText';

/** Beyond this many files per list, the summary counts the rest and points at --json. */
export const FILES_SHOWN = 20;

export function decisionText(comparison: Comparison, style: Style, drift?: OutputDrift, interruptedStaging?: string): string {
  const label = comparison.reason ? `${comparison.decision} (${comparison.reason})` : comparison.decision;
  if (comparison.decision === 'conflict' || comparison.decision === 'unmanaged') return style.red(label);
  // A half-written publication is in the folder: a normal replace is refused whatever the manifests say.
  if (interruptedStaging !== undefined) return style.yellow(`${label}, but an interrupted replace left ${printable(interruptedStaging)}`);
  // The manifest matches, the files do not: never a green "skip".
  if (drift && drift.drifted.length > 0)
    return style.yellow(`${label}, but ${drift.drifted.length} of ${drift.verifiedCount} outputs drifted`);
  if (comparison.decision === 'replace' || comparison.decision === 'publish') return style.cyan(label);
  return style.green(label);
}

const short = (digest: string) => printable(digest.startsWith('sha256:') ? `${digest.slice(0, 19)}…` : digest);

/** Up to FILES_SHOWN rows of one list, then a one-cell row counting the rest. */
function capped<T>(items: readonly T[], row: (item: T) => string[], indent: string): string[][] {
  const rows = items.slice(0, FILES_SHOWN).map(row);
  if (items.length > FILES_SHOWN) rows.push([`${indent}… and ${items.length - FILES_SHOWN} more; --json lists them all`]);
  return rows;
}

/** The diff: field changes, a count line, then added, removed and changed files. */
export function diffLines(diff: ManifestDiff, style: Style, indent = '  '): string[] {
  const lines: string[] = [];
  const fieldRows: string[][] = [];
  if (diff.fields.id) fieldRows.push([`${indent}id`, `${printable(diff.fields.id.recorded)} → ${printable(diff.fields.id.current)}`]);
  if (diff.fields.created) {
    const order = { newer: 'the source is newer', older: 'the source is older', same_instant: 'the same instant' }[
      diff.fields.created.order
    ];
    fieldRows.push([
      `${indent}created`,
      `${printable(diff.fields.created.recorded)} → ${printable(diff.fields.created.current)} (${order})`,
    ]);
  }
  if (diff.fields.digest)
    fieldRows.push([`${indent}digest`, `${short(diff.fields.digest.recorded)} → ${short(diff.fields.digest.current)}`]);
  lines.push(style.bold('Manifest recorded in the destination → source manifest'));
  lines.push(...(fieldRows.length > 0 ? table(fieldRows).split('\n') : [`${indent}id, created and digest are the same`]));
  lines.push(
    `${style.bold('Files')}: ${diff.added.length} added, ${diff.removed.length} removed, ${diff.changed.length} changed, ${diff.unchangedCount} unchanged`,
  );
  // One table for the three lists, so that paths line up across them.
  const rows = [
    ...capped(diff.added, (file) => [`${indent}${style.green('added')}`, printable(file.path), `${file.size} bytes`], indent),
    ...capped(diff.removed, (file) => [`${indent}${style.red('removed')}`, printable(file.path), `${file.size} bytes`], indent),
    ...capped(
      diff.changed,
      (change) => [
        `${indent}${style.yellow('changed')}`,
        printable(change.path),
        change.changedBy
          .map((by) =>
            by === 'size'
              ? `size ${change.recorded.size} → ${change.current.size} bytes`
              : `sha256 ${short(change.recorded.sha256)} → ${short(change.current.sha256)}`,
          )
          .join(', '),
      ],
      indent,
    ),
  ];
  if (rows.length > 0) lines.push(...table(rows).split('\n'));
  return lines;
}

export interface ComparisonView {
  comparison: Comparison;
  /** The engine's one wording of the decision. */
  explanation: ComparisonWords;
  /** What verify found behind a matching manifest. */
  drift?: OutputDrift;
  /** The staging folder an interrupted replace left (shared/replaceVerdict.ts, interruptedStagingOf). */
  interruptedStaging?: string;
  diff: ManifestDiff | null;
  destinationPath: string;
  destinationStatus: string;
  manifestFile: string;
}

/** The outputs that differ from their record, one per line, capped like the diff. */
function driftLines(drift: OutputDrift | undefined, style: Style): string[] {
  if (!drift || drift.drifted.length === 0) return [];
  const rows = capped(drift.drifted, (output) => [`  ${style.yellow(output.status)}`, printable(output.path)], '  ');
  return [
    '',
    style.bold(`Outputs that differ from the state (${drift.drifted.length} of ${drift.verifiedCount})`),
    ...table(rows).split('\n'),
    '',
  ];
}

export function comparisonText(view: ComparisonView, style: Style, details: string[] = []): string {
  const { comparison } = view;
  const lines = [
    table([
      [
        style.bold('decision'),
        `${decisionText(comparison, style, view.drift, view.interruptedStaging)}  ${style.dim(`(rule ${comparison.rule} of 9)`)}`,
      ],
      [style.bold('destination'), `${printable(view.destinationPath)} (${view.destinationStatus})`],
      [style.bold('source'), printable(view.manifestFile)],
    ]),
    '',
    printable(view.explanation.sentence),
    ...driftLines(view.drift, style),
    ...(view.explanation.next ? [printable(view.explanation.next)] : []),
    ...details,
  ];
  if (view.diff) lines.push('', ...diffLines(view.diff, style));
  else lines.push('', style.dim('No valid state to compare files with: no diff.'));
  return `${lines.join('\n')}\n`;
}
