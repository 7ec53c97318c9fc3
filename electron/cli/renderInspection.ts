// An inspection for people (aligned, coloured on a terminal) and as the `inspect --json` document.
// Shared by `inspect` and `compare`; holds no rules, only the words and the layout.

import { formatBytes } from '../../shared/byteSize';
import { countIssues, formatIssuePath, type Issue } from '../../shared/issues';
import type { DestinationStatus } from '../../shared/inspection';
import type { DestinationInspection } from '../service/destinationRead';
import { table, type Style } from './style';
import { printable } from './terminalText';

/** Beyond this many, the human summary counts the rest and points at --json. */
export const ISSUES_SHOWN = 100;

export function statusText(status: DestinationStatus, style: Style): string {
  if (status === 'managed') return style.green(status);
  if (status === 'invalid') return style.red(status);
  if (status === 'unmanaged') return style.yellow(status);
  return style.dim(status);
}

export function severityText(issue: Issue, style: Style): string {
  return issue.severity === 'error' ? style.red('error') : style.yellow('warning');
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * `severity  path  code  message`, one aligned row per issue, capped at `limit`. The summaries of
 * codes past the parser's cap ("and 900 more like this") are always shown: they say how much more
 * there is, and there are at most a few dozen.
 */
export function issueLines(issues: readonly Issue[], style: Style, limit = ISSUES_SHOWN, indent = '  '): string[] {
  const summariesPastLimit = issues.slice(limit).filter((issue) => issue.omitted);
  const hidden = Math.max(0, issues.length - limit - summariesPastLimit.length);
  const rows = [...issues.slice(0, limit), ...summariesPastLimit].map((issue) => [
    `${indent}${severityText(issue, style)}`,
    printable(formatIssuePath(issue.path)),
    style.dim(printable(issue.code)),
    printable(issue.message),
  ]);
  const lines = rows.length > 0 ? table(rows).split('\n') : [];
  if (hidden > 0) lines.push(`${indent}… ${hidden} more issue${hidden === 1 ? '' : 's'} not shown here; --json lists them`);
  return lines;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The facts of a state file worth a glance; read from the raw JSON so an invalid state shows them too. */
function stateFacts(json: Record<string, unknown>): string[][] {
  const rows: string[][] = [];
  for (const key of ['pipeline_id', 'destination_id', 'published_at', 'distributor_version']) {
    const value = text(json[key]);
    if (value !== undefined) rows.push([key, printable(value)]);
  }
  const manifest = (json.source as Record<string, unknown> | undefined)?.manifest as Record<string, unknown> | undefined;
  if (manifest && typeof manifest === 'object') {
    const files = Array.isArray(manifest.files) ? `, ${plural(manifest.files.length, 'file')}` : '';
    const created = text(manifest.created) ? `, created ${printable(text(manifest.created)!)}` : '';
    rows.push(['source', `${printable(text(manifest.id) ?? '(no id)')}${created}${files}`]);
  }
  if (Array.isArray(json.outputs)) {
    let generated = 0;
    let source = 0;
    for (const output of json.outputs as { kind?: unknown }[]) {
      if (output?.kind === 'generated') generated++;
      else if (output?.kind === 'source') source++;
    }
    rows.push(['outputs', `${json.outputs.length} (${generated} generated, ${source} source)`]);
  }
  return rows;
}

/** The human summary of `inspect`: status, ids, published_at, counts, then the issues. */
export function inspectionText(inspection: DestinationInspection, style: Style): string {
  const { errors, warnings } = countIssues(inspection.issues);
  const rows: string[][] = [
    ['destination', printable(inspection.path)],
    ['status', statusText(inspection.status, style)],
    ...(inspection.stateJson ? stateFacts(inspection.stateJson) : []),
    ...(inspection.stateWithheld
      ? [['state file', `${formatBytes(inspection.stateWithheld.sizeBytes)}: too large to show; its issues are below`]]
      : []),
    ['issues', `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`],
  ];
  const lines = [table(rows.map(([label, value]) => [style.bold(label as string), value as string]))];
  if (inspection.issues.length > 0) lines.push('', ...issueLines(inspection.issues, style));
  return `${lines.join('\n')}\n`;
}

/**
 * The `inspect --json` document: {path, status, issues, stateWithheld?, state?} (stateWithheld: a
 * state too large to print, by its size). `state` is the state file's own
 * text, spliced in: it parsed as this very JSON value, and re-serializing 50,000 outputs would cost
 * more than the rest of the command. `extra` fields (for example `verify`) come after `issues`.
 */
export function inspectionJson(inspection: DestinationInspection, extra: Record<string, unknown> = {}): string {
  const withheld = inspection.stateWithheld ? { stateWithheld: inspection.stateWithheld } : {};
  const envelope = JSON.stringify(
    { path: inspection.path, status: inspection.status, issues: inspection.issues, ...withheld, ...extra },
    null,
    2,
  );
  if (inspection.stateJson === undefined) return `${envelope}\n`;
  const stateText = inspection.stateText?.trim() ?? JSON.stringify(inspection.stateJson, null, 2);
  return `${envelope.slice(0, -2)},\n  "state": ${stateText}\n}\n`;
}
