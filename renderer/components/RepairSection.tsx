// The Actions tab's Repair: on a destination the last verify found drifted, plan rewriting only the
// recorded outputs that drifted, from bytes proven from the source bundle chosen under "Plan from".
// The plan lists what is rewritten, what is refused by name with the reason, and the extras that stay;
// when some are refused, the rest are applied only after "accept partial repair" is ticked. A box per
// drifted output lets the operator keep some as they are (all ticked by default); a choice other than
// the plan's is planned again before the apply, and applied only if that plan is the one reviewed. The
// button that names the counts opens the confirmation at the plan's level (ApplyConfirmDialog); then
// progress and the engine's result.

import { useState } from 'react';
import type { DestinationEntry } from '../../shared/api';
import type { ReplacePlan } from '../../shared/plan';
import { usePlanRepair } from '../hooks/api';
import { useApplyOutcome } from '../hooks/useApplyOutcome';
import { useHostPhrase } from '../hooks/useHostPhrase';
import { useAppState } from '../state/store';
import { verifiedFactsOf } from '../view/destinationRows';
import { readPlan } from '../view/planView';
import { repairConfirmLabel, repairLines, repairSummary } from '../view/recoveryView';
import { repairChoiceCounts } from '../../shared/repairSelection';
import { chosenPlan, choiceIsPlanned, keepOf, NONE_CHOSEN, sameReview } from '../view/repairChoice';
import { useRepairChoice } from '../hooks/useRepairChoice';
import { RepairChoiceBar } from './RepairChoiceBar';
import { ApplyOutcomeView } from './ApplyOutcome';
import { ApplyConfirmDialog } from './ApplyConfirmDialog';
import type { useBackupTarget } from './BackupTargetNote';
import type { DialogConsent } from '../view/confirmView';
import { Callout } from './Callout';
import { Icon } from './Icon';
import { JobProgress } from './JobProgress';
import { RecoveryPlanList } from './RecoveryPlanList';
import { RequestedResult } from './RequestedResult';
import { SECTION_GOALS } from '../view/sectionGoals';

/** Whether the last verify, still describing the disk, found drift: the one time Repair is offered. */
function useDrift(id: string): 'drifted' | 'intact' | 'stale' | 'unverified' {
  const verified = useAppState((app) => app.destinationTable.verifyEntry(id));
  const freshness = useAppState((app) => app.destinationTable.verifyFreshness(id));
  const facts = verifiedFactsOf(verified, freshness);
  if (!facts) return 'unverified';
  if (!facts.freshness.fresh) return 'stale';
  return facts.status;
}

const NOT_DRIFTED: Record<'intact' | 'stale' | 'unverified', string> = {
  unverified: 'Verify this destination (Outputs tab) first: Repair is offered when verify finds outputs that drifted.',
  stale: 'The last verify no longer describes the disk: verify again (Outputs tab) to see what drifted now.',
  intact: 'The last verify found every recorded output intact: there is nothing to repair.',
};

/** `backup`: where the destination's next backup goes (ActionsTab's useBackupTarget), named in the confirmation. */
export function RepairSection({
  entry,
  source,
  backup,
}: {
  entry: DestinationEntry;
  source: { source?: string };
  backup: ReturnType<typeof useBackupTarget>;
}) {
  const drift = useDrift(entry.id);
  const plan = usePlanRepair();
  const { outcome, apply, clear } = useApplyOutcome(entry.id);
  const [acceptPartial, setAcceptPartial] = useState(false);
  const applying = useAppState((state) => state.jobs.find((job) => job.method === 'applyPlan' && job.destination === entry.id));
  const [mine, setMine] = useState(false);
  // Nothing destructive is one click: the apply button opens the confirmation (docs/confirmations.md).
  const [confirming, setConfirming] = useState(false);
  const read = plan.state.status === 'ok' ? readPlan(plan.state.value.plan) : undefined;
  const repair = read?.ok ? read.value : undefined;
  const planId = plan.state.status === 'ok' ? plan.state.value.planId : undefined;
  const choice = useRepairChoice(planId, repair);
  // Set when planning the choice again found the destination changed since the review.
  const [changedSince, setChangedSince] = useState(false);
  const counts = repair ? repairChoiceCounts(repair, choice.unchecked) : { rewrite: 0, keep: 0, refused: 0 };
  const choosable = counts.rewrite + counts.keep;
  const partial = counts.refused > 0 && counts.rewrite > 0;
  const canApply = repair !== undefined && counts.rewrite > 0 && (!partial || acceptPartial) && !applying;
  const noSource = source.source === undefined && !entry.source;
  // On a workspace host, the plan and its button name it: the repair runs there.
  const host = useHostPhrase(entry.id);

  const makePlan = () => {
    clear();
    setAcceptPartial(false);
    setChangedSince(false);
    void plan.run({ destination: entry.id, ...source });
  };
  const applyRepair = async (shown: ReplacePlan, shownId: string, consent: DialogConsent) => {
    setConfirming(false);
    const keep = keepOf(shown, choice.unchecked);
    let target = shownId;
    if (!choiceIsPlanned(shown, choice.unchecked)) {
      // The plan reviewed with this selection, made by the engine: applied only if it is the same.
      const next = await plan.run({ destination: entry.id, ...source, keep });
      const planned = next.status === 'ok' ? readPlan(next.value.plan) : undefined;
      if (next.status !== 'ok' || !planned?.ok) return;
      if (!sameReview(planned.value, shown, keep)) {
        setChangedSince(true);
        return;
      }
      target = next.value.planId;
    }
    setMine(true);
    await apply(
      { planId: target, ...consent, ...(keep.length > 0 ? { keep } : {}), ...(partial && acceptPartial ? { acceptPartial: true } : {}) },
      `Repair ${entry.id}`,
    );
    setMine(false);
    plan.reset();
  };

  return (
    <section className="action-section" aria-labelledby="repair-title" id={SECTION_GOALS.repair.id} tabIndex={-1}>
      <h2 id="repair-title">
        <Icon name="shield" /> Repair
      </h2>
      <p>
        Rewrites only the recorded outputs that verify found missing or changed, from bytes proven to hash to what the state file records
        (the source bundle&apos;s file, or the output regenerated from it). The state file is not rewritten and extra files are kept; an
        output whose bytes cannot be proven is refused by name and left as it is.
      </p>
      {drift !== 'drifted' && !repair && !outcome && (
        <p className="muted" data-testid="repair-not-offered">
          {NOT_DRIFTED[drift]}
        </p>
      )}
      {(drift === 'drifted' || repair) && (
        <div className="button-row">
          <button
            type="button"
            className="button"
            onClick={makePlan}
            disabled={plan.state.status === 'loading' || Boolean(applying) || noSource}
          >
            {repair ? 'Plan repair again' : 'Plan repair'}
          </button>
          {noSource && <span className="muted">The workspace configures no source for this destination: choose one under Plan from.</span>}
        </div>
      )}
      {plan.state.status === 'loading' && <p role="status">Planning the repair…</p>}
      {plan.state.status === 'error' && (
        <RequestedResult label="Repair refused">
          <Callout tone="danger" title="The repair was refused" role="alert">
            <p>{plan.state.error.message}</p>
          </Callout>
        </RequestedResult>
      )}
      {read && !read.ok && (
        <RequestedResult label="Repair refused">
          <Callout tone="danger" title="The repair was refused" role="alert">
            <p>{read.error}</p>
          </Callout>
        </RequestedResult>
      )}
      {repair && plan.state.status === 'ok' && (
        <RequestedResult key={plan.state.value.planId} label="Repair plan" testId="plan-repair">
          <p className="plan-source">
            Proven from source bundle <code>{repair.sourcePath}</code>
            {host && (
              <>
                {' '}
                <strong data-testid="repair-host">on host {host}</strong>, where it rewrites <code>{repair.destinationPath}</code>
              </>
            )}
          </p>
          <p data-testid="repair-summary">{repairSummary(repair)}</p>
          {changedSince && (
            <Callout tone="warning" title="The destination changed since you reviewed it" role="alert">
              <p>Planning your selection again found other drifted outputs than the plan you reviewed: review this plan, then apply.</p>
            </Callout>
          )}
          <div className="plan-counts" aria-label="Repair summary">
            <span className="tone-good badge">{counts.rewrite} to rewrite</span>
            {counts.keep > 0 && <span className="tone-warning badge">{counts.keep} kept as is</span>}
            {(repair.repair?.refused.length ?? 0) > 0 && (
              <span className="tone-warning badge">{repair.repair?.refused.length} refused</span>
            )}
            <span className="badge">{repair.repair?.extras.length ?? 0} extra kept</span>
          </div>
          {choosable > 0 && (
            <RepairChoiceBar
              plan={repair}
              unchecked={choice.unchecked}
              onAll={choice.all}
              onNone={choice.none}
              disabled={Boolean(applying)}
            />
          )}
          <RecoveryPlanList
            lines={repairLines(repair)}
            label="Every output the repair rewrites, every one it refuses, every extra file it keeps"
            choice={{ unchecked: choice.unchecked, onToggle: choice.toggle, disabled: Boolean(applying) }}
          />
          {(repair.repair?.interruptedStaging.length ?? 0) > 0 && (
            <p className="muted" role="note">
              <Icon name="alert" /> An interrupted apply left {repair.repair?.interruptedStaging.join(', ')}: the repair keeps it (Discard
              staging removes it).
            </p>
          )}
          {choosable === 0 && (repair.repair?.refused.length ?? 0) > 0 && (
            <Callout tone="warning" title="Nothing can be repaired" role="status">
              <p>Every drifted output is refused (reasons above). A forced replace from the source publishes it again as a whole.</p>
            </Callout>
          )}
          {partial && (
            <div className="field checkbox">
              <input
                id="repair-accept-partial"
                type="checkbox"
                checked={acceptPartial}
                onChange={(event) => setAcceptPartial(event.target.checked)}
                disabled={Boolean(applying)}
              />
              <label htmlFor="repair-accept-partial">
                Accept partial repair: rewrite the other {counts.rewrite} and leave the {repair.repair?.refused.length} refused as they are
              </label>
            </div>
          )}
          {choosable > 0 && (
            <div className="button-row">
              <button
                type="button"
                className="button primary"
                disabled={!canApply}
                aria-describedby={counts.rewrite === 0 ? 'repair-none-chosen' : undefined}
                onClick={() => setConfirming(true)}
                data-testid="repair-review"
              >
                {repairConfirmLabel(repair, entry.host, counts)}
              </button>
              {counts.rewrite === 0 && (
                <span id="repair-none-chosen" className="muted" data-testid="repair-none-chosen">
                  {NONE_CHOSEN}
                </span>
              )}
            </div>
          )}
          {confirming && plan.state.status === 'ok' && (
            <ApplyConfirmDialog
              plan={chosenPlan(repair, choice.unchecked)}
              destinationId={entry.id}
              confirmation={plan.state.value.confirmation}
              confirmText={plan.state.value.confirmText}
              host={entry.host}
              backup={backup.target}
              backupError={backup.error}
              onCancel={() => setConfirming(false)}
              onConfirm={(consent) => planId !== undefined && void applyRepair(repair, planId, consent)}
            />
          )}
        </RequestedResult>
      )}
      {applying && mine && <JobProgress job={applying} />}
      {outcome && (
        <RequestedResult label="Repair outcome">
          <ApplyOutcomeView outcome={outcome} onPlanAgain={makePlan} noun="repair" destination={entry.id} />
        </RequestedResult>
      )}
    </section>
  );
}
