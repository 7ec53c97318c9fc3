// What each status and health word means, in a sentence: the chips' and the status bar's tooltips
// (a `title`, which is also their accessible description). The words themselves are StatusBadge's and
// health.ts's; this module only explains them.

import type { DestinationStatus } from '../../shared/inspection';
import type { HealthMark } from './health';

export const STATUS_MEANING: Record<DestinationStatus, string> = {
  managed: 'managed: a valid state file describes what was published here',
  unmanaged: 'unmanaged: files but no state file; only a forced replace publishes here',
  empty: 'empty: no state file and no content; a replace publishes here',
  invalid: 'invalid: the state file breaks the contract (Raw state tab says where)',
};

export const HEALTH_MEANING: Record<HealthMark, string> = {
  drifted: 'drifted: the last verify found outputs missing or changed on disk; Repair rewrites them',
  intact: 'intact: the last verify found every recorded output as recorded',
  unverified: 'not verified: a managed destination no verify has hashed yet',
  stale: 'stale: verified, but the folder changed since; verify again to know it now',
  interrupted: 'interrupted: a replace stopped midway and left its staging folder',
  warnings: 'has warnings: the state file is usable but not as the contract asks (Raw state tab)',
};

export const NOT_VERIFIABLE_MEANING = 'not verifiable: unmanaged, empty or invalid, with no valid state file to verify against';

/** The meanings of the words a status line uses, one a line, for its tooltip. */
export function meaningsIn(text: string): string {
  const words: [string, string][] = [
    ['not verifiable', NOT_VERIFIABLE_MEANING],
    ['not verified', HEALTH_MEANING.unverified],
    ['drifted', HEALTH_MEANING.drifted],
    ['stale', HEALTH_MEANING.stale],
    ['interrupted', HEALTH_MEANING.interrupted],
    ['intact', HEALTH_MEANING.intact],
  ];
  return words
    .filter(([word]) => text.includes(word))
    .map(([, meaning]) => meaning)
    .join('\n');
}
