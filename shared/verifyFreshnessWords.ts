// The one wording of a verify result's age and freshness ("verified 2 min ago", "stale — verify
// again"), for the list, the detail pane, the status bar and the CLI. Pure; the time "now" is passed
// in so a view can re-render it as the clock moves. Never calls a stale result intact or drifted.

import type { StaleReason, VerifyFreshness } from './verifyFreshness';

/** "verified just now", "verified 2 min ago", "verified 3 h ago", "verified 2 days ago": coarse on purpose. */
export function verifiedAgo(verifiedAt: string, now: number): string {
  const then = Date.parse(verifiedAt);
  if (Number.isNaN(then)) return 'verified at an unknown time';
  const seconds = Math.floor((now - then) / 1000);
  // A host clock a little ahead of the page's (a few seconds) still reads as just now.
  if (seconds < 60) return 'verified just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `verified ${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `verified ${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `verified ${days} day${days === 1 ? '' : 's'} ago`;
}

/** The badge of a stale result. */
export const STALE_TITLE = 'stale — verify again';

const REASON_WORDS: Record<StaleReason, string> = {
  state_changed: 'the state file changed since',
  listing_changed: 'files in the destination changed since',
  changed_on_disk: 'a change on disk was seen since',
  changed_on_host: 'a change on its host was seen since (changed on host)',
  host_unwatched:
    'its host could not be watched for a while since (the connection was lost or its watch failed), so a change may have gone unseen',
  outputs_changed: 'an output was edited, replaced or removed since (its size, time or file identity differs)',
};

/** Why it is stale, as a clause: "the state file changed since". */
export function staleReasonWords(reason: StaleReason): string {
  return REASON_WORDS[reason];
}

/**
 * What stands beside the badge (which says intact, drifted or STALE_TITLE): "verified 2 min ago", or
 * for a stale one what it was, when, and why it is stale: "was intact, verified 5 min ago; files in
 * the destination changed since".
 */
export function verifyFreshnessDetail(status: 'intact' | 'drifted', verifiedAt: string, freshness: VerifyFreshness, now: number): string {
  const age = verifiedAgo(verifiedAt, now);
  if (freshness.fresh) return age;
  return `was ${status}, ${age}; ${staleReasonWords(freshness.reason)}`;
}

/**
 * The whole sentence for a tooltip or a line of text: "intact, verified 2 min ago" or "was intact,
 * verified 5 min ago; files in the destination changed since: stale — verify again".
 */
export function describeVerifyFreshness(status: 'intact' | 'drifted', verifiedAt: string, freshness: VerifyFreshness, now: number): string {
  const detail = verifyFreshnessDetail(status, verifiedAt, freshness, now);
  return freshness.fresh ? `${status}, ${detail}` : `${detail}: ${STALE_TITLE}`;
}
