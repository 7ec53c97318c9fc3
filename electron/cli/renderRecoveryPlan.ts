// The text of a repair or discard-staging plan and of its result, for `distributor-inspector repair`
// and `discard-staging` (printed by replaceCommand.ts's one confirm/apply flow): which outputs are
// rewritten and from where, which are kept as they are by choice (--keep), which are refused by name
// and why, the extras kept; what a staging folder
// holds. Pure; every name from the disk goes through printable().

import { installedCommand } from '../service/installedCommand';
import type { ApplyResult, ReplacePlan } from '../../shared/plan';
import { partialNotAccepted, repairRefusedText } from '../../shared/plan';
import { planKindNoun, planKindOf } from '../../shared/planKinds';
import { PLAN_ROW_SIGNS } from '../../shared/planRows';
import { countsWords, planCounts } from '../../shared/planCounts';
import { countsLines } from './renderCounts';
import type { Style } from './style';
import { printable } from './terminalText';

/** Beyond this many lines per list, the text says how many more; --json always has all. */
const LIST_LIMIT = 1000;

const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

const STATUS_WORDS: Record<string, string> = {
  missing: 'missing',
  size_mismatch: 'size changed',
  hash_mismatch: 'content changed',
  not_a_file: 'not a file',
};

function list<T>(lines: string[], heading: string, items: readonly T[], line: (item: T) => string): void {
  lines.push('', `${heading}:`);
  if (items.length === 0) lines.push('  (none)');
  for (const item of items.slice(0, LIST_LIMIT)) lines.push(line(item));
  if (items.length > LIST_LIMIT) lines.push(`  … ${items.length - LIST_LIMIT} more (--json lists them all)`);
}

export function repairPlanText(plan: ReplacePlan, style: Style): string {
  const details = plan.repair;
  const lines = [`${style.bold('Repair')} of ${printable(plan.destinationPath)} from ${printable(plan.sourcePath)}`];
  if (!details) return `${lines.join('\n')}\n`;
  const kept = details.kept ?? [];
  if (details.driftedCount === 0) {
    lines.push('Nothing to repair: every recorded output holds its recorded bytes.');
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    '',
    ...countsLines(plan, style),
    `${plural(details.driftedCount, 'drifted output')}: ${details.repairs.length} rewritten, ${kept.length > 0 ? `${kept.length} kept as ${kept.length === 1 ? 'it is' : 'they are'}, ` : ''}${details.refused.length} refused.`,
  );
  list(lines, 'Rewrite (from bytes proven to hash to the recorded sha256)', details.repairs, (entry) => {
    const write = plan.writes.find((candidate) => candidate.path === entry.path);
    const origin = entry.origin === 'regenerated' ? `regenerated from ${printable(write?.source_path ?? '')}` : 'copied from the source';
    // The plan rows' signs (shared/planRows.ts): a missing output is created again, any other rewritten.
    const sign = entry.status === 'missing' ? style.green(PLAN_ROW_SIGNS.create) : style.yellow(PLAN_ROW_SIGNS.update);
    return `  ${sign} ${printable(entry.path)}  ${style.dim(`${STATUS_WORDS[entry.status] ?? entry.status}; ${origin}`)}`;
  });
  if (kept.length > 0)
    list(
      lines,
      'Kept as they are (--keep: not rewritten, still drifted afterwards; the state file still records the published bytes)',
      kept,
      (entry) => `  ${style.dim(PLAN_ROW_SIGNS.keep)} ${printable(entry.path)}  ${style.dim(STATUS_WORDS[entry.status] ?? entry.status)}`,
    );
  if (details.refused.length > 0)
    list(
      lines,
      style.yellow('Refused (left as they are)'),
      details.refused,
      (entry) =>
        `  ${style.yellow('!')} ${printable(entry.path)}  ${style.dim(`${STATUS_WORDS[entry.status] ?? entry.status}`)}: ${printable(entry.message)} (${printable(entry.code)})`,
    );
  list(lines, 'Kept (extra files, never touched)', details.extras, (extra) => `  ${style.dim(PLAN_ROW_SIGNS.keep)} ${printable(extra)}`);
  if (details.interruptedStaging.length > 0)
    lines.push(
      '',
      `An interrupted apply left ${details.interruptedStaging.map(printable).join(', ')}: kept (${printable(installedCommand())} discard-staging DEST removes it).`,
    );
  if (plan.writes.length === 0)
    lines.push(
      '',
      style.yellow(
        kept.length > 0
          ? 'Nothing to rewrite: every drifted output is kept as it is or refused.'
          : 'Nothing can be repaired: every drifted output is refused.',
      ),
    );
  else if (partialNotAccepted(plan, false))
    lines.push(
      '',
      style.yellow(`${repairRefusedText(plan)}: apply only with --accept-partial, which repairs the other ${plan.writes.length}.`),
    );
  return `${lines.join('\n')}\n`;
}

export function discardPlanText(plan: ReplacePlan, style: Style): string {
  const lines = [`${style.bold('Discard staging')} in ${printable(plan.destinationPath)}`];
  for (const folder of plan.staging ?? []) {
    const marker = folder.marker;
    lines.push(
      '',
      `  ${style.red('-')} ${printable(folder.name)}/`,
      marker
        ? `    an interrupted ${printable(planKindNoun(marker.mode))} of ${printable(marker.source.id)}, started ${printable(marker.created)} (planned ${printable(marker.plannedAt)})`
        : '    no readable marker',
      `    ${plural(folder.stagedFiles, 'file')} staged (${plural(folder.stagedBytes, 'byte')})${
        folder.trashEntries > 0 ? `, ${plural(folder.trashEntries, 'old entry', 'old entries')} a forced replace had moved aside` : ''
      }${folder.stateTemp ? ', a new state not yet in place' : ''}`,
    );
  }
  lines.push(
    '',
    ...countsLines(plan, style),
    'Only these folders are removed (moved into the backup, when one is kept); the state file, the outputs and every other file stay as they are.',
  );
  return `${lines.join('\n')}\n`;
}

/** The one line of a repair or discard that completed. */
export function recoveryDoneText(result: ApplyResult, plan: ReplacePlan, style: Style): string {
  if (planKindOf(result.mode).onlyStaging)
    return `${style.green('Done')}: ${countsWords(planCounts(plan), 'done')}: ${result.deleted.map(printable).join(', ')} (${result.durationMs} ms).\n`;
  const refused = plan.repair?.refused.length ?? 0;
  const kept = plan.repair?.kept?.length ?? 0;
  const left = [
    kept > 0 ? `${plural(kept, 'drifted output')} kept as ${kept === 1 ? 'it was' : 'they were'}` : '',
    refused > 0 ? `${plural(refused, 'refused output')} left as ${refused === 1 ? 'it was' : 'they were'}` : '',
  ].filter(Boolean);
  return `${style.green('Done')}: ${countsWords(planCounts(plan), 'done')}${left.length > 0 ? ` (${left.join('; ')})` : ''} (${result.durationMs} ms).\n`;
}
