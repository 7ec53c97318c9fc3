// The compare decision in plain words, and what it lets the operator do next. Pure.
// Never says a normal replace is allowed when the decision or the replace policy forbids it.

import type { ResponseOf } from '../../shared/api';

type Comparison = ResponseOf<'compare'>['comparison'];

export type Tone = 'good' | 'info' | 'warning' | 'danger';

export interface DecisionWords {
  /** Short, for a badge: "Replace", "Conflict: digest mismatch". */
  title: string;
  /** One or two sentences a newcomer understands. */
  sentence: string;
  tone: Tone;
  /** Whether a normal replace (or first publish) may run. */
  normalReplaceAllowed: boolean;
  /** What to do next, in words. */
  next: string;
}

const FIELD_WORDS: Record<string, string> = {
  pipeline_id: 'pipeline id',
  destination_id: 'destination id',
  'source.manifest.id': 'source id',
};

/** `allowReplace` is the workspace's replace policy for this destination; undefined means allowed. */
export function describeDecision(comparison: Comparison, allowReplace: boolean | undefined = true): DecisionWords {
  const policyAllows = allowReplace !== false;
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
      return {
        title: 'Up to date',
        sentence: 'The destination already holds exactly this source manifest: nothing to do.',
        tone: 'good',
        normalReplaceAllowed: false,
        next: 'Nothing to do.',
      };
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
      return policyAllows
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

function conflictWords(comparison: Comparison): DecisionWords {
  const base = { tone: 'danger' as const, normalReplaceAllowed: false };
  switch (comparison.reason) {
    case 'invalid_state':
      return {
        ...base,
        title: 'Conflict: invalid state',
        sentence: 'The state file is invalid, so the inspector cannot tell what the destination holds.',
        next: 'See the Raw state tab for each problem; fix the file or use a forced replace.',
      };
    case 'identity_mismatch': {
      const what = (comparison.mismatches ?? [])
        .map((m) => `its ${FIELD_WORDS[m.field] ?? m.field} is "${m.actual}", expected "${m.expected}"`)
        .join('; ');
      return {
        ...base,
        title: 'Conflict: belongs to something else',
        sentence: `The destination was published by another pipeline or for another destination: ${what}.`,
        next: 'Check the workspace file; a forced replace would take the destination over.',
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
