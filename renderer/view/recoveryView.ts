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
  return [
    ...details.repairs.map((entry): RecoveryLine => ({
      op: 'rewrite',
      path: entry.path,
      detail: `${statusWords(entry.status)} · ${entry.origin === 'regenerated' ? `regenerated from ${sources.get(entry.path) ?? 'its source file'}` : 'copied from the source'}`,
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
 * opens the confirmation, in the one vocabulary of counts. `host`: the workspace host's name.
 */
export function repairConfirmLabel(plan: ReplacePlan, host?: string): string {
  const refused = plan.repair?.refused.length ?? 0;
  const left = refused > 0 ? ` (${plural(refused, 'refused output')} left as ${refused === 1 ? 'it is' : 'they are'})` : '';
  return `${onHost(planCountsSentence(plan.mode, planCounts(plan)), host)}${left}…`;
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
