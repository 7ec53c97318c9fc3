// A repair or discard-staging plan as the Actions tab shows it: what is rewritten (and why, and from
// where), what is refused by name with the engine's reason, what is kept; what a staging folder holds;
// and the words of the one button that applies it. Pure.

import type { ReplacePlan, StagingContents } from '../../shared/plan';
import { formatBytes, formatTimestamp, plural } from './format';
import { planKindNoun } from '../../shared/planKinds';
import { planCounts, planCountsSentence } from '../../shared/planCounts';

export interface RecoveryLine {
  op: 'rewrite' | 'refused' | 'keep';
  path: string;
  detail: string;
  /** A drifted output the operator may choose to rewrite or keep as it is (rewritten or kept by the plan). */
  choosable?: boolean;
}

const STATUS_WORDS: Record<string, string> = {
  missing: 'missing',
  size_mismatch: 'size changed',
  hash_mismatch: 'content changed',
  not_a_file: 'not a file',
};

export const statusWords = (status: string) => STATUS_WORDS[status] ?? status;

/** Every drifted output (rewritten, then refused) and every extra kept: nothing is left out, whatever the count. */
export function repairLines(plan: ReplacePlan): RecoveryLine[] {
  const details = plan.repair;
  if (!details) return [];
  const sources = new Map(plan.writes.map((write) => [write.path, write.source_path]));
  // The outputs kept by the plan are choosable like the rewritten ones, in one order, so planning
  // again with a selection never moves a row.
  const choosable = [...details.repairs, ...(details.kept ?? [])].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return [
    ...choosable.map((entry): RecoveryLine => ({
      op: 'rewrite',
      path: entry.path,
      detail: `${statusWords(entry.status)} · ${entry.origin === 'regenerated' ? `regenerated from ${sources.get(entry.path) ?? 'its source file'}` : 'copied from the source'}`,
      choosable: true,
    })),
    ...details.refused.map((entry): RecoveryLine => ({
      op: 'refused',
      path: entry.path,
      detail: `${statusWords(entry.status)} · ${entry.message}`,
    })),
    ...details.extras.map((extra): RecoveryLine => ({ op: 'keep', path: extra, detail: 'extra file · kept' })),
  ];
}

/** Whether the repair needs the operator to accept leaving its refused outputs as they are. */
export function needsPartialConsent(plan: ReplacePlan): boolean {
  return (plan.repair?.refused.length ?? 0) > 0 && plan.writes.length > 0;
}

/**
 * "Repair on web-1: create 1 file, update 2 files (1 refused output left as it is)…": the button that
 * opens the confirmation, in the one vocabulary of counts; with outputs unticked to keep, "rewrite 3
 * outputs, keep 1 as it is". `host`: the workspace host's name, for a destination on one.
 */
/** `choice`: the counts of the boxes ticked (repairChoiceCounts); by default, the plan's own. */
export function repairConfirmLabel(plan: ReplacePlan, host?: string, choice?: { rewrite: number; keep: number }): string {
  const refused = plan.repair?.refused.length ?? 0;
  const rewrite = choice?.rewrite ?? plan.writes.length;
  const keep = choice?.keep ?? plan.repair?.kept?.length ?? 0;
  const kept = keep > 0 ? `, keep ${keep} as ${keep === 1 ? 'it is' : 'they are'}` : '';
  const left = refused > 0 ? ` (${plural(refused, 'refused output')} left as ${refused === 1 ? 'it is' : 'they are'})` : '';
  // The plan as planned: its counts. A selection not planned yet: what the boxes say, until it is.
  if (keep === 0 && rewrite === plan.writes.length) return `${onHost(planCountsSentence(plan.mode, planCounts(plan)), host)}${left}…`;
  return `Repair${host !== undefined ? ` on ${host}` : ''}: rewrite ${plural(rewrite, 'output')}${kept}${left}…`;
}

/** "Repair on web-1: …": the kind's title (before its colon) named with the host. */
function onHost(sentence: string, host: string | undefined): string {
  if (host === undefined) return sentence;
  const colon = sentence.indexOf(':');
  return `${sentence.slice(0, colon)} on ${host}${sentence.slice(colon)}`;
}

/** "3 of 5 drifted outputs can be rewritten; the state file and 2 extra files stay". */
export function repairSummary(plan: ReplacePlan): string {
  const details = plan.repair;
  if (!details || details.driftedCount === 0) return 'Nothing drifted: every recorded output holds its recorded bytes.';
  return `${details.repairs.length} of ${plural(details.driftedCount, 'drifted output')} can be rewritten from bytes proven to hash to the recorded sha256; the state file and ${plural(details.extras.length, 'extra file')} stay as they are.`;
}

/** What one staging folder holds, as sentences: which publication, since when, how many files. */
export function stagingWords(folder: StagingContents): string[] {
  const marker = folder.marker;
  const started = marker ? (formatTimestamp(marker.created)?.utc ?? marker.created) : undefined;
  const what = marker
    ? `An interrupted ${planKindNoun(marker.mode)} of ${marker.source.id}, started ${started}, for ${marker.pipeline_id}/${marker.destination_id}.`
    : 'Its marker could not be read.';
  const staged = `${plural(folder.stagedFiles, 'file')} staged (${formatBytes(folder.stagedBytes)})`;
  const trash =
    folder.trashEntries > 0 ? `, ${plural(folder.trashEntries, 'old entry', 'old entries')} a forced replace had moved aside` : '';
  const temp = folder.stateTemp ? ', a new state file not yet in place' : '';
  return [what, `${staged}${trash}${temp}.`];
}

/** "Discard staging: delete 1 folder (.distributor-staging, 2 staged files)…": the button that opens the confirmation. */
export function discardConfirmLabel(plan: ReplacePlan, host?: string): string {
  const folders = plan.staging ?? [];
  const files = folders.reduce((sum, folder) => sum + folder.stagedFiles, 0);
  const names = folders.map((folder) => folder.name).join(', ');
  return `${onHost(planCountsSentence(plan.mode, planCounts(plan)), host)} (${names}, ${plural(files, 'staged file')})…`;
}
