// The Overview's two axes in words: the sync (what Compare decides against the configured source,
// as the list's sync badge says) and the health (what verify found, and whether it still describes
// the disk). A manifest that matches with drifted outputs is said as Compare says it, with Repair
// named. Words come from shared/ (comparisonWords.ts, verifyFreshnessWords.ts); none are made here.

import type { DestinationEntry } from '../../shared/api';
import { describeComparison } from '../../shared/comparisonWords';
import { firstNames, outputDriftOf } from '../../shared/outputDrift';
import { describeVerifyFreshness } from '../../shared/verifyFreshnessWords';
import { FRESH, verifyHealth } from '../../shared/verifyFreshness';
import { useNow } from '../hooks/useNow';
import { useAppState } from '../state/store';
import { SyncBadge, VerifyMark } from './StatusBadge';
import { GoToButton } from './GoToButton';
import type { GoTo } from '../view/sectionGoals';

/** `onGoTo`: drift found by a verify that still describes the disk offers Repair… (Actions → Repair). */
export function SyncAndHealth({ entry, managed, onGoTo }: { entry: DestinationEntry; managed: boolean; onGoTo?: GoTo | undefined }) {
  const sync = useAppState((state) => state.destinationTable.scanEntry(entry.id)?.sync);
  const verified = useAppState((state) => state.destinationTable.verifyEntry(entry.id));
  const freshness = useAppState((state) => state.destinationTable.verifyFreshness(entry.id)) ?? FRESH;
  const heldBack = useAppState((state) => state.autoVerifySkipped?.get(entry.id));
  const now = useNow();
  const health = verifyHealth(verified && { status: verified.report.status, freshness });
  const drift = verified && health === 'drifted' ? outputDriftOf(verified.report) : undefined;
  // Up to date by the manifests, drifted by the bytes: Compare's own words for it, Repair named.
  const words =
    sync?.kind === 'up_to_date' && drift
      ? describeComparison(
          { decision: 'skip', rule: 5 },
          { drift, destinationPath: entry.path, replaceAllowed: entry.replacePolicy !== 'deny' },
        )
      : sync;
  const drifted = drift?.drifted.map((output) => `${output.path} (${output.status})`) ?? [];
  return (
    <section className="section" aria-labelledby="overview-axes">
      <h2 id="overview-axes">Sync and health</h2>
      <dl className="facts" data-testid="overview-axes">
        <dt>Sync</dt>
        <dd data-testid="overview-sync">
          {sync ? (
            <>
              <SyncBadge kind={sync.kind} title={sync.title} /> <strong>{words?.title}</strong>. {words?.sentence}
              {words && 'next' in words && words.next ? <> {words.next}</> : null}
            </>
          ) : (
            <span className="muted">Not decided yet: the destination has not been scanned.</span>
          )}
        </dd>
        <dt>Health</dt>
        <dd data-testid="overview-health">
          {!managed ? (
            <span className="muted">Nothing to verify: there is no valid state to check the outputs against.</span>
          ) : verified ? (
            <>
              <VerifyMark
                mark={health}
                verified={{ status: verified.report.status, verifiedAt: verified.stamp.verifiedAt, freshness }}
                heldBack={heldBack}
              />{' '}
              {drift
                ? `${drift.drifted.length} of ${drift.verifiedCount} outputs differ from what the state records: ${firstNames(drifted, 5)}. `
                : ''}
              {describeVerifyFreshness(verified.report.status, verified.stamp.verifiedAt, freshness, now)}
              {health === 'stale' && heldBack ? <span data-testid="overview-held-back">. Not verified by itself: {heldBack}.</span> : null}
              {drift && (
                <GoToButton goal="repair" onGoTo={onGoTo}>
                  Repair…
                </GoToButton>
              )}
            </>
          ) : (
            <span className="muted">Not verified yet: Verify hashes every output against the state.</span>
          )}
        </dd>
      </dl>
    </section>
  );
}
