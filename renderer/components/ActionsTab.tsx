// The Actions tab: normal and forced replace, always planned first. A normal replace confirms with one
// button that names the count, enabled only when the decision allows it; a forced replace sits in a red
// section and applies only after the destination id is typed. Then progress, the result and a rescan.

import { useState } from 'react';
import type { ApiError, DestinationEntry } from '../../shared/api';
import { applyResultSchema, type ApplyResult, type ReplacePlan } from '../../shared/plan';
import { usePlanReplace } from '../hooks/api';
import { refreshDestination, trackedJob } from '../state/actions';
import { useAppState } from '../state/store';
import { plural } from '../view/format';
import { confirmLabel, readPlan } from '../view/planView';
import { Callout } from './Callout';
import { ForceReplaceDialog } from './ForceReplaceDialog';
import { Icon } from './Icon';
import { JobProgress } from './JobProgress';
import { PlanDetails } from './PlanDetails';

type Outcome = { kind: 'done'; result: ApplyResult } | { kind: 'failed'; error: ApiError } | { kind: 'stale' };

const STALE_CODES = new Set(['stale_plan']);

function PlanError({ error }: { error: ApiError }) {
  return (
    <Callout tone="danger" title="The plan was refused" role="alert">
      <p>{error.message}</p>
    </Callout>
  );
}

function OutcomeView({ outcome, onPlanAgain }: { outcome: Outcome; onPlanAgain: () => void }) {
  if (outcome.kind === 'stale') {
    return (
      <Callout tone="warning" title="The destination changed since this plan: plan again" role="alert">
        <p>Nothing was changed. Something on disk differs from what the plan was made from.</p>
        <div className="button-row">
          <button type="button" className="button" onClick={onPlanAgain}>
            Plan again
          </button>
        </div>
      </Callout>
    );
  }
  if (outcome.kind === 'failed') {
    return (
      <Callout tone="danger" title="The replace did not complete" role="alert">
        <p>{outcome.error.message}</p>
      </Callout>
    );
  }
  const { result } = outcome;
  return (
    <Callout tone={result.ok ? 'good' : 'danger'} title={result.ok ? 'Replaced' : 'The replace did not complete'} role="status">
      <p>
        {result.ok
          ? `Deleted ${plural(result.deleted.length, 'path')} and wrote ${plural(result.written.length, 'file')} in ${Math.round(result.durationMs)} ms. The new state file is in place; the destination was rescanned and verified.`
          : `${result.error?.message ?? 'Unknown error.'} ${result.stateWritten ? 'The new state was written.' : result.changed ? 'Some files were changed; the state file on disk still describes what is there.' : 'Nothing was changed.'}`}
      </p>
    </Callout>
  );
}

function usePlanAndApply(entry: DestinationEntry, mode: 'replace' | 'force') {
  const plan = usePlanReplace();
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const makePlan = () => {
    setOutcome(undefined);
    void plan.run({ destination: entry.id, mode });
  };
  const apply = async (planId: string, confirm?: string, includeNested?: boolean) => {
    const label = mode === 'force' ? `Force replace ${entry.id}` : `Replace ${entry.id}`;
    const request = {
      planId,
      ...(confirm !== undefined ? { confirm } : {}),
      ...(includeNested ? { includeNested } : {}),
    };
    const answer = await trackedJob('applyPlan', request, label, {
      destination: entry.id,
    });
    plan.reset();
    if (!answer.ok) {
      setOutcome(STALE_CODES.has(answer.error.code) ? { kind: 'stale' } : { kind: 'failed', error: answer.error });
      return;
    }
    const result = applyResultSchema.safeParse(answer.value);
    if (!result.success)
      setOutcome({ kind: 'failed', error: { code: 'internal', message: 'the result of the replace could not be read' } });
    else
      setOutcome(result.data.error && STALE_CODES.has(result.data.error.code) ? { kind: 'stale' } : { kind: 'done', result: result.data });
    await refreshDestination(entry.id);
  };
  return { plan, outcome, makePlan, apply };
}

export function ActionsTab({ entry }: { entry: DestinationEntry }) {
  const normal = usePlanAndApply(entry, 'replace');
  const force = usePlanAndApply(entry, 'force');
  const [confirming, setConfirming] = useState<{ plan: ReplacePlan; planId: string; confirmText: string } | undefined>();
  const applying = useAppState((state) => state.jobs.find((job) => job.method === 'applyPlan' && job.destination === entry.id));

  const normalPlan = normal.plan.state.status === 'ok' ? readPlan(normal.plan.state.value.plan) : undefined;
  const forcePlan = force.plan.state.status === 'ok' ? readPlan(force.plan.state.value.plan) : undefined;
  const words = normalPlan?.ok ? normalPlan.plan.comparison.explanation : undefined;
  const canApplyNormal = Boolean(normalPlan?.ok && words?.normalReplaceAllowed && normalPlan.plan.action === 'replace' && !applying);

  return (
    <div>
      <section className="action-section" aria-labelledby="replace-title">
        <h2 id="replace-title">
          <Icon name="refresh" /> Replace
        </h2>
        <p>
          Publishes the configured source: deletes only the outputs the state file records and the state file itself, then writes the new
          outputs. Extra files are never touched. Allowed when the destination holds an older publication of the same source, or nothing
          yet.
        </p>
        <div className="button-row">
          <button
            type="button"
            className="button"
            onClick={normal.makePlan}
            disabled={normal.plan.state.status === 'loading' || Boolean(applying)}
          >
            {normalPlan ? 'Plan again' : 'Plan replace'}
          </button>
          {!entry.source && <span className="muted">The workspace configures no source for this destination.</span>}
        </div>
        {normal.plan.state.status === 'loading' && <p role="status">Planning…</p>}
        {normal.plan.state.status === 'error' && <PlanError error={normal.plan.state.error} />}
        {normalPlan && !normalPlan.ok && <PlanError error={{ code: 'internal', message: normalPlan.message }} />}
        {normalPlan?.ok && words && (
          <>
            <Callout tone={words.normalReplaceAllowed ? 'info' : words.tone} title={`Decision: ${words.title}`}>
              <p>{words.sentence}</p>
              {!words.normalReplaceAllowed && words.next && <p className="muted">{words.next}</p>}
            </Callout>
            <PlanDetails plan={normalPlan.plan} />
            <div className="button-row">
              <button
                type="button"
                className="button primary"
                disabled={!canApplyNormal}
                onClick={() => normal.plan.state.status === 'ok' && void normal.apply(normal.plan.state.value.planId)}
              >
                {confirmLabel(normalPlan.plan)}
              </button>
            </div>
          </>
        )}
        {applying && !confirming && normal.plan.state.status !== 'idle' && <JobProgress job={applying} />}
        {normal.outcome && <OutcomeView outcome={normal.outcome} onPlanAgain={normal.makePlan} />}
      </section>

      <section className="action-section destructive" aria-labelledby="force-title-section">
        <h2 id="force-title-section">
          <Icon name="trash" /> Forced replace
        </h2>
        <p>
          <strong>
            Deletes everything inside <code>{entry.path}</code>
          </strong>
          , including files that no state file records and any staging folder left by an interrupted replace, then publishes the source. It
          never follows links out of the folder. This is the way out of unmanaged, invalid and conflicting destinations. It cannot be
          undone.
        </p>
        <div className="button-row">
          <button
            type="button"
            className="button danger-outline"
            onClick={force.makePlan}
            disabled={force.plan.state.status === 'loading' || Boolean(applying)}
          >
            {forcePlan ? 'Plan forced replace again' : 'Plan forced replace'}
          </button>
        </div>
        {force.plan.state.status === 'loading' && <p role="status">Planning…</p>}
        {force.plan.state.status === 'error' && <PlanError error={force.plan.state.error} />}
        {forcePlan && !forcePlan.ok && <PlanError error={{ code: 'internal', message: forcePlan.message }} />}
        {forcePlan?.ok && force.plan.state.status === 'ok' && (
          <>
            <PlanDetails plan={forcePlan.plan} />
            <div className="button-row">
              <button
                type="button"
                className="button danger"
                disabled={Boolean(applying)}
                onClick={() =>
                  force.plan.state.status === 'ok' &&
                  setConfirming({
                    plan: forcePlan.plan,
                    planId: force.plan.state.value.planId,
                    confirmText: force.plan.state.value.confirmText ?? entry.id,
                  })
                }
              >
                Review and force replace…
              </button>
            </div>
          </>
        )}
        {applying && force.plan.state.status !== 'idle' && <JobProgress job={applying} />}
        {force.outcome && <OutcomeView outcome={force.outcome} onPlanAgain={force.makePlan} />}
      </section>

      {confirming && (
        <ForceReplaceDialog
          plan={confirming.plan}
          confirmText={confirming.confirmText}
          onCancel={() => setConfirming(undefined)}
          onConfirm={(typed, includeNested) => {
            const { planId } = confirming;
            setConfirming(undefined);
            void force.apply(planId, typed, includeNested);
          }}
        />
      )}
    </div>
  );
}
