// A destination's status, verify mark and sync as badges: a word, an icon and a colour, never colour alone.

import type { DestinationStatus } from '../../shared/inspection';
import type { SyncKind } from '../../shared/syncStatus';
import { SYNC_LABELS } from '../../shared/syncWords';
import type { VerifiedFacts, VerifyMark as VerifyMarkValue } from '../view/destinationRows';
import { describeVerifyFreshness, STALE_TITLE, verifyFreshnessDetail } from '../../shared/verifyFreshnessWords';
import { Icon, type IconName } from './Icon';
import { useNow } from '../hooks/useNow';

const STATUS_LOOK: Record<DestinationStatus | 'pending', { label: string; icon: IconName; tone: string; hint: string }> = {
  managed: { label: 'managed', icon: 'checkCircle', tone: 'tone-good', hint: 'a valid state file describes this destination' },
  unmanaged: { label: 'unmanaged', icon: 'question', tone: 'tone-warning', hint: 'files but no state file' },
  empty: { label: 'empty', icon: 'circle', tone: 'tone-neutral', hint: 'no state file and no content' },
  invalid: { label: 'invalid', icon: 'xCircle', tone: 'tone-danger', hint: 'the state file breaks the contract' },
  pending: { label: 'scanning…', icon: 'dash', tone: 'tone-neutral', hint: 'not scanned yet' },
};

export function StatusBadge({ status }: { status: DestinationStatus | undefined }) {
  const look = STATUS_LOOK[status ?? 'pending'];
  return (
    <span className={`badge ${look.tone}`} title={look.hint}>
      <Icon name={look.icon} />
      {look.label}
    </span>
  );
}

/** The sync axis's look (shared/syncStatus.ts): what needs a decision is warm, what agrees is calm. */
export const SYNC_LOOK: Record<SyncKind, { icon: IconName; tone: string }> = {
  up_to_date: { icon: 'checkCircle', tone: 'tone-good' },
  publish_waiting: { icon: 'refresh', tone: 'tone-warning' },
  destination_newer: { icon: 'info', tone: 'tone-neutral' },
  conflict: { icon: 'xCircle', tone: 'tone-danger' },
  unmanaged: { icon: 'question', tone: 'tone-warning' },
  no_source: { icon: 'dash', tone: 'tone-neutral' },
  source_unreadable: { icon: 'alert', tone: 'tone-danger' },
};

/** The sync badge: its word, an icon and a colour; the tooltip says Compare's title. */
export function SyncBadge({ kind, title }: { kind: SyncKind; title?: string | undefined }) {
  const look = SYNC_LOOK[kind];
  return (
    <span className={`badge ${look.tone}`} title={`sync: ${title ?? SYNC_LABELS[kind]}`} data-sync={kind}>
      <Icon name={look.icon} />
      {SYNC_LABELS[kind]}
    </span>
  );
}

const VERIFY_LOOK: Record<VerifyMarkValue, { label: string; icon: IconName; tone: string }> = {
  intact: { label: 'intact', icon: 'shield', tone: 'tone-good' },
  drifted: { label: 'drifted', icon: 'alert', tone: 'tone-danger' },
  unverified: { label: 'not verified', icon: 'dash', tone: 'tone-neutral' },
  stale: { label: STALE_TITLE, icon: 'refresh', tone: 'tone-warning' },
};

/**
 * The verify mark. With `verified`, its tooltip says when it was taken and, for a stale one, why
 * (shared/verifyFreshnessWords.ts); `detail` writes that beside the badge too (the detail header).
 */
export function VerifyMark({
  mark,
  compact = false,
  verified,
  detail = false,
  heldBack,
}: {
  mark: VerifyMarkValue;
  compact?: boolean;
  verified?: VerifiedFacts | undefined;
  detail?: boolean;
  /** Why auto-verify left this stale result as it is (over its size limit): said only while it is stale. */
  heldBack?: string | undefined;
}) {
  const look = VERIFY_LOOK[mark];
  const now = useNow();
  // In the list, "not verified" is quiet text: it is the normal state before a verify, not a finding.
  if (compact && mark === 'unverified')
    return (
      <span className="verify-quiet" title="verify: not verified">
        not verified
      </span>
    );
  const held = mark === 'stale' && heldBack ? `; not verified by itself: ${heldBack}` : '';
  const title = verified
    ? `verify: ${describeVerifyFreshness(verified.status, verified.verifiedAt, verified.freshness, now)}${held}`
    : `verify: ${look.label}`;
  return (
    <>
      <span className={`badge outline ${look.tone}`} title={title} data-verify-mark={mark}>
        <Icon name={look.icon} />
        {look.label}
      </span>
      {detail && verified && (
        <span className="verify-detail muted" data-testid="verify-freshness">
          {verifyFreshnessDetail(verified.status, verified.verifiedAt, verified.freshness, now)}
          {held}
        </span>
      )}
    </>
  );
}

export const statusLabel = (status: DestinationStatus) => STATUS_LOOK[status].label;
export const statusIcon = (status: DestinationStatus) => STATUS_LOOK[status].icon;
