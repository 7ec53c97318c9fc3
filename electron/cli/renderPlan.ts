// A replace plan for people: the decision, the counts, one row per path (the sign, the word, the
// size, where its bytes come from), and the state it would write. Layout only; the rows and their
// words come from shared/planRows.ts. Repair and discard-staging plans are renderRecoveryPlan.ts's.

import './startupChunk'; // what every command's start shares, as one chunk of the build

import { adoptWritesText } from '../../shared/folderCompare';
import { nestedDestinationsText, type ReplacePlan } from '../../shared/plan';
import { planKindOf } from '../../shared/planKinds';
import { planRows, planRowWord, planTotalsText, PLAN_ROW_SIGNS, type PlanRow } from '../../shared/planRows';

import type { Style } from './style';
import { printable } from './terminalText';

import { discardPlanText, repairPlanText } from './renderRecoveryPlan';

/** Beyond this many lines per list, the text output says how many more; --json always has all. */
const LIST_LIMIT = 1000;

function bytesText(size: number): string {
  return `${size.toLocaleString('en-US')} byte${size === 1 ? '' : 's'}`;
}

export function planText(plan: ReplacePlan, style: Style): string {
  const kind = planKindOf(plan.mode);
  // The kinds that keep the state have their own text: a discard of staging, or a repair.
  if (kind.keepsState) return kind.onlyStaging ? discardPlanText(plan, style) : repairPlanText(plan, style);
  const title = kind.deletesWholeTree ? style.red(style.bold(kind.title)) : style.bold(kind.title);
  const comparison = plan.comparison;
  const lines = [`${title} of ${printable(plan.destinationPath)}`];
  if (comparison)
    lines.push(
      `Decision: ${comparison.decision}${comparison.reason ? ` (${comparison.reason})` : ''}. ${printable(comparison.explanation.sentence)}`,
    );
  if (plan.action === 'nothing') return `${lines.join('\n')}\nNothing to do: no file would be deleted or written.\n`;
  const { rows, totals } = planRows(plan);
  lines.push(
    '',
    style.bold(planTotalsText(totals)),
    kind.writesOnlyState
      ? style.dim(adoptWritesText(plan.newState?.outputs.length ?? 0, plan.extras?.length ?? 0))
      : style.dim(`(${bytesText(plan.summary.deleteBytes)} removed, ${bytesText(plan.summary.writeBytes)} written)`),
  );
  if (plan.summary.changedCount > 0)
    lines.push(
      style.yellow(
        `${changedText(plan)}: their bytes no longer match the state (edited by hand?), and those edits will be lost (marked "!" below).`,
      ),
    );
  if (plan.nestedDestinations.length > 0) {
    lines.push(style.red(`This also deletes ${nestedDestinationsText(plan, LIST_LIMIT)}: each one's state file and outputs go too.`));
    lines.push('Apply only with --include-nested.');
  }
  lines.push('');
  if (rows.length === 0) lines.push('  (no path)');
  const width = Math.max(...rows.slice(0, LIST_LIMIT).map((row) => planRowWord(row).length), 0);
  for (const row of rows.slice(0, LIST_LIMIT)) lines.push(rowLine(row, width, style));
  if (rows.length > LIST_LIMIT) lines.push(`  … ${rows.length - LIST_LIMIT} more (--json lists them all)`);
  const state = plan.newState;
  if (state) {
    lines.push(
      '',
      `New state: pipeline ${printable(state.pipeline_id)}, destination ${printable(state.destination_id)}, ${state.outputs.length} outputs, source ${printable(state.source.manifest.id)} created ${printable(state.source.manifest.created)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const SIGN_COLOR: Record<PlanRow['kind'], keyof Pick<Style, 'green' | 'yellow' | 'red' | 'dim'>> = {
  create: 'green',
  update: 'yellow',
  delete: 'red',
  unchanged: 'dim',
  keep: 'dim',
};

/** "  ~ update      report.html  120 bytes (was 80 bytes), generated from report.md": one row of the plan. */
function rowLine(row: PlanRow, width: number, style: Style): string {
  const color = style[SIGN_COLOR[row.kind]];
  const details: string[] = [];
  if (row.type === 'state') details.push('the state file');
  else if (row.type !== 'file') details.push(row.type);
  if (row.size !== undefined && row.type !== 'directory')
    details.push(row.oldSize !== undefined ? `${bytesText(row.size)} (was ${bytesText(row.oldSize)})` : bytesText(row.size));
  if (row.write) details.push(row.write.kind === 'generated' ? `generated from ${printable(row.write.sourcePath)}` : 'copied');
  if (row.kind === 'unchanged') details.push('same bytes, written again');
  if (row.note && row.note !== 'extra') details.push(printable(row.note));
  const changed = row.changed ? `  ${style.yellow(`! changed on disk since published: will be lost (${row.changed})`)}` : '';
  return `  ${color(`${PLAN_ROW_SIGNS[row.kind]} ${planRowWord(row).padEnd(width)}`)}  ${printable(row.path)}  ${style.dim(details.join(', '))}${changed}`;
}

/** "2 recorded outputs were changed on disk since published". */
function changedText(plan: ReplacePlan): string {
  const count = plan.summary.changedCount;
  return `${count} recorded output${count === 1 ? ' was' : 's were'} changed on disk since published`;
}
