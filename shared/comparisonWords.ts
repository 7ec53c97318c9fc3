// The one wording of a comparison: a title, a sentence a newcomer understands, a tone, whether a
// normal replace may run, and what to do next. The engine puts it into every compare answer and
// every plan; the renderer and the CLI show it as given. Pure. Whether a normal replace is allowed
// is never decided here: it is the verdict of the one rule (replaceVerdict.ts), also the planner's.

import { z } from 'zod';
import type { Comparison } from './compare';
import { firstNames, type OutputDrift } from './outputDrift';
import { normalReplaceVerdict } from './replaceVerdict';

export const toneSchema = z.enum(['good', 'info', 'warning', 'danger']);
export type Tone = z.infer<typeof toneSchema>;

export const comparisonWordsSchema = z.object({
  /** Short, for a badge: "Replace", "Conflict: digest mismatch". */
  title: z.string(),
  /** One or two sentences a newcomer understands. */
  sentence: z.string(),
  tone: toneSchema,
  /** Whether a normal replace (or a first publish) may run. */
  normalReplaceAllowed: z.boolean(),
  /** What to do next, in words; absent when there is nothing to do. */
  next: z.string().optional(),
});
export type ComparisonWords = z.infer<typeof comparisonWordsSchema>;

const FIELD_WORDS: Record<string, string> = {
  pipeline_id: 'pipeline id',
  destination_id: 'destination id',
  'source.manifest.id': 'source id',
};

export interface WordsOptions {
  /** The workspace's replace policy for this destination allows a replace (default: it does). */
  replaceAllowed?: boolean;
  /** What verify found behind a matching manifest (skip); absent when the outputs were not verified. */
  drift?: OutputDrift;
  /** The destination's path, for the commands the words name (`distributor-inspector repair DEST`). */
  destinationPath?: string;
  /** A staging folder left by an interrupted replace (the `interrupted` issue): it comes first. */
  interruptedStaging?: string;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** A path as one shell word: bare when it is plain, else single-quoted. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** Skip, with the outputs verified: up to date only when every one matches its record. */
function skipWords(drift: OutputDrift | undefined, destinationPath: string | undefined): ComparisonWords {
  if (drift === undefined || drift.drifted.length === 0) {
    return {
      title: 'Up to date',
      sentence:
        drift === undefined
          ? 'The destination already holds exactly this source manifest: nothing to do.'
          : `The destination already holds exactly this source manifest, and ${drift.verifiedCount === 1 ? 'its one output matches' : `all ${plural(drift.verifiedCount, 'output')} match`} what the state records: nothing to do.`,
      tone: 'good',
      normalReplaceAllowed: false,
    };
  }
  const { drifted, extras } = drift;
  const named = drifted.map((output) => `${output.path} (${output.status})`);
  const dest = shellWord(destinationPath ?? 'DEST');
  const present = drift.verifiedCount - drifted.filter((output) => output.status === 'missing').length;
  const kept = extras.length > 0 ? ` and keeps the ${plural(extras.length, 'extra file')}` : '';
  const extraWords = extras.length > 0 ? `, and the ${plural(extras.length, 'file')} no state records (${firstNames(extras)})` : '';
  return {
    title: 'Manifest matches, outputs drifted',
    sentence: `The destination records exactly this source manifest, but ${drifted.length} of ${plural(drift.verifiedCount, 'output')} ${drifted.length === 1 ? 'differs' : 'differ'} from what the state records: ${firstNames(named, 5)}.`,
    tone: 'warning',
    normalReplaceAllowed: false,
    next:
      `Repair restores them (Actions → Repair, or distributor-inspector repair ${dest}): it rewrites only ${drifted.length === 1 ? 'that output' : `those ${drifted.length} outputs`} from the source${kept}. ` +
      `A forced replace restores them too, but deletes everything in the folder first: the state file, the ${plural(present, 'recorded output')} still there${extraWords}.`,
  };
}

export function describeComparison(comparison: Comparison, options: WordsOptions = {}): ComparisonWords {
  const { replaceAllowed = true, interruptedStaging } = options;
  const verdict = normalReplaceVerdict({ comparison, replaceAllowed, interruptedStaging });
  const decided = decisionWords(comparison, options);
  const words = interruptedStaging !== undefined ? interruptedWords(interruptedStaging, decided, options.destinationPath) : decided;
  return { ...words, normalReplaceAllowed: verdict.outcome === 'allowed' };
}

/** The message of the planner's refusal of a normal replace: the same words Compare shows. */
export function refusalMessage(words: ComparisonWords): string {
  return `${words.sentence} A normal replace is refused.${words.next ? ` ${words.next}` : ''}`;
}

/** A half-written publication in the folder: named, with both ways out; what the manifests say comes after. */
function interruptedWords(folder: string, decided: ComparisonWords, destinationPath: string | undefined): ComparisonWords {
  return {
    title: 'Interrupted replace',
    sentence: `A staging folder (${folder}) from an interrupted replace is in the destination: it must be cleared before anything is published here. Behind it, the comparison says: ${decided.title}.`,
    tone: decided.tone === 'danger' ? 'danger' : 'warning',
    normalReplaceAllowed: false,
    next: `Discard staging removes only that folder (Actions → Discard staging, or distributor-inspector discard-staging ${shellWord(destinationPath ?? 'DEST')}); a forced replace clears it too, but deletes everything else in the folder.`,
  };
}

function decisionWords(comparison: Comparison, { replaceAllowed = true, drift, destinationPath }: WordsOptions): ComparisonWords {
  switch (comparison.decision) {
    case 'publish':
      return {
        title: 'Publish',
        sentence: 'The destination is empty and has no state file: the source can be published into it.',
        tone: 'info',
        normalReplaceAllowed: true,
        next: 'Plan a replace to publish it.',
      };
    case 'unmanaged':
      return {
        title: 'Unmanaged',
        sentence:
          'The destination holds files but no state file, so nothing proves what they are: a normal publish would overwrite them blindly.',
        tone: 'warning',
        normalReplaceAllowed: false,
        next: 'Only a forced replace can take it over; it deletes everything in the folder.',
      };
    case 'skip':
      return skipWords(drift, destinationPath);
    case 'skip_newer':
      return {
        title: 'Destination is newer',
        sentence:
          'The destination holds a newer publication of the same source than the one you picked: it is skipped, so an older source never overwrites a newer one.',
        tone: 'info',
        normalReplaceAllowed: false,
        next: 'Pick a newer source bundle, or use a forced replace to roll back on purpose.',
      };
    case 'replace':
      return replaceAllowed
        ? {
            title: 'Replace',
            sentence: 'The destination holds an older publication of the same source: replace is allowed.',
            tone: 'info',
            normalReplaceAllowed: true,
            next: 'Plan a replace to see every file it deletes and writes.',
          }
        : {
            title: 'Replace (denied by policy)',
            sentence:
              'The destination holds an older publication of the same source, but its replace policy in the workspace file denies replacing it.',
            tone: 'warning',
            normalReplaceAllowed: false,
            next: 'Change replace_policy in the workspace file, or use a forced replace.',
          };
    case 'conflict':
      return conflictWords(comparison);
  }
}

function conflictWords(comparison: Comparison): ComparisonWords {
  const base = { tone: 'danger' as const, normalReplaceAllowed: false };
  switch (comparison.reason) {
    case 'invalid_state':
      return {
        ...base,
        title: 'Conflict: invalid state',
        sentence: 'The state file is invalid, so the inspector cannot tell what the destination holds.',
        next: 'Each problem of the state file is listed at its field (the Raw state tab, or inspect); fix the file or use a forced replace.',
      };
    case 'identity_mismatch': {
      const what = (comparison.mismatches ?? [])
        .map((m) => `its ${FIELD_WORDS[m.field] ?? m.field} is "${m.actual}", expected "${m.expected}"`)
        .join('; ');
      return {
        ...base,
        title: 'Conflict: belongs to something else',
        sentence: `The destination was published by another pipeline or for another destination: ${what}.`,
        next: 'Check the workspace configuration; a forced replace would take the destination over.',
      };
    }
    case 'digest_mismatch':
      return {
        ...base,
        title: 'Conflict: digest mismatch',
        sentence: 'Same source id and created time, but a different digest: two different builds claim to be the same publication.',
        next: 'Find out which build is right; a forced replace overwrites the destination.',
      };
    default:
      return {
        ...base,
        title: 'Conflict: manifest mismatch',
        sentence: 'Same source id, created time and digest, but different files: the manifest was edited after it was built.',
        next: 'Rebuild the source; a forced replace overwrites the destination.',
      };
  }
}
