// The Actions tab: normal and forced replace from the configured source bundle or any other (typed,
// listed from the workspace, picked in the desktop app), always planned first. A normal replace confirms in a
// dialog that names the counts (one click, or Enter), offered only when the decision allows it; a forced replace sits in a red
// section and applies only after the destination id is typed, in a dialog that stays open, locked,
// while it runs. Then progress and the engine's ApplyResult, refused and failed ones included. Beside
// them the two recovery actions: Repair of what verify found drifted (RepairSection.tsx), and Discard
// staging on an interrupted destination (DiscardStagingSection.tsx); on an unmanaged one, the folder
// compare with a source bundle and Adopt (FolderCompareSection.tsx).

import { useState } from 'react';
import type { ApiError, DestinationEntry } from '../../shared/api';
import type { Issue } from '../../shared/issues';
import type { ConfirmationLevel, ReplacePlan } from '../../shared/plan';
import { planKindOf } from '../../shared/planKinds';
import type { DialogConsent } from '../view/confirmView';
import { usePlanReplace } from '../hooks/api';
import { applyPlan } from '../state/actions';
import { useAppState } from '../state/store';
import { useHostPhrase } from '../hooks/useHostPhrase';
import { bundleName, confirmLabel, readPlan } from '../view/planView';
import { ApplyOutcomeView, type ApplyOutcome } from './ApplyOutcome';
import { Callout } from './Callout';
import { useBackupTarget } from './BackupTargetNote';
import { ForceReplaceDialog } from './ForceReplaceDialog';
import { Icon } from './Icon';
import { JobProgress } from './JobProgress';
import { PlanDetails } from './PlanDetails';
import { RequestedResult } from './RequestedResult';
import { ReplaceConfirmDialog } from './ReplaceConfirmDialog';
import { SourceBundlePicker } from './SourceBundlePicker';
import { RepairSection } from './RepairSection';
import { DiscardStagingSection } from './DiscardStagingSection';
import { FolderCompareSection } from './FolderCompareSection';
import { isInterruptedIssue } from '../view/destinationRows';
import { actionsOffered } from '../view/actionsOffered';
import { SECTION_GOALS } from '../view/sectionGoals';
import type { DestinationStatus } from '../../shared/inspection';

function PlanError({ error, source }: { error: ApiError; source?: string }) {
  return (
    <Callout tone="danger" title="The plan was refused" role="alert">
      <p>{error.message}</p>
      {source && (
        <p className="muted" data-testid="plan-error-source">
          Planned from the source bundle <code>{source}</code>.
        </p>
      )}
    </Callout>
  );
}

/** The source to plan from: the configured one unless another was typed, listed or picked. */
function sourceRequest(entry: DestinationEntry, source: string): { source?: string } {
  const typed = source.trim();
  return typed === '' || typed === entry.source ? {} : { source: typed };
}

function usePlanAndApply(entry: DestinationEntry, mode: 'replace' | 'force', source: string) {
  const plan = usePlanReplace();
  const [outcome, setOutcome] = useState<ApplyOutcome | undefined>();
  const makePlan = () => {
    setOutcome(undefined);
    void plan.run({ destination: entry.id, mode, ...sourceRequest(entry, source) });
  };
  const apply = async (planId: string, consent: DialogConsent, includeNested?: boolean): Promise<ApplyOutcome> => {
    const label = `${planKindOf(mode).title} ${entry.id}`;
    const request = { planId, ...consent, ...(includeNested ? { includeNested } : {}) };
    const answer = await applyPlan(entry.id, request, label);
    plan.reset();
    // The job's result is the ApplyResult, also when the apply was refused or failed; an error means it never ran (or was cancelled).
    const outcome: ApplyOutcome = answer.ok ? { kind: 'result', result: answer.value } : { kind: 'error', error: answer.error };
    setOutcome(outcome);
    return outcome;
  };
  return { plan, outcome, makePlan, apply };
}

/** What to do when the state file may not be read: the engine said why (owner, mode, our uid). */
function UnreadableStateAdvice({ issue }: { issue: Issue }) {
  return (
    <Callout tone="danger" title="The state file cannot be read: permission denied">
      <p>{issue.message}</p>
      <p>
        Nothing can be compared or planned against a state that cannot be read. Give the user the inspector runs as read access to{' '}
        <code>.distributor.json</code> (and write access to the destination folder, for a replace): run the inspector as the file&apos;s
        owner, or have the owner add that user to the file&apos;s group or change its mode. Then rescan.
      </p>
      <p>A forced replace would delete the file without reading what it records: use it only when you know what this destination holds.</p>
    </Callout>
  );
}

/** `status`: the destination's, from its inspection; it decides which sections can apply (undefined: not read yet, all shown). */
export function ActionsTab({
  entry,
  issues = [],
  status,
}: {
  entry: DestinationEntry;
  issues?: readonly Issue[];
  status?: DestinationStatus | undefined;
}) {
  const offered = actionsOffered(status);
  const unreadable = issues.find((issue) => issue.code === 'state_unreadable');
  const [source, setSource] = useState(entry.source ?? '');
  const normal = usePlanAndApply(entry, 'replace', source);
  const force = usePlanAndApply(entry, 'force', source);
  const { reset: resetNormal } = normal.plan;
  const { reset: resetForce } = force.plan;
  /** A plan belongs to the bundle it was made from: another bundle chosen, the shown plans go. */
  const chooseSource = (next: string) => {
    setSource(next);
    resetNormal();
    resetForce();
  };
  const noSource = source.trim() === '' && !entry.source;
  // Shown while the destination is interrupted, and kept once shown so its result stays on screen.
  const interrupted = issues.some(isInterruptedIssue);
  const [discardShown, setDiscardShown] = useState(interrupted);
  if (interrupted && !discardShown) setDiscardShown(true);
  // The same for the folder compare: once adopted the folder is managed, and the outcome stays on screen.
  const [adoptShown, setAdoptShown] = useState(offered.adopt);
  if (offered.adopt && !adoptShown) setAdoptShown(true);
  const [confirming, setConfirming] = useState<
    | {
        mode: 'replace' | 'force';
        plan: ReplacePlan;
        planId: string;
        confirmation: ConfirmationLevel;
        confirmText: string;
        outcome?: ApplyOutcome;
        applying?: boolean;
      }
    | undefined
  >();
  // On a workspace host, every destructive step names it: the button, the section, the confirmation.
  const host = useHostPhrase(entry.id);
  const applying = useAppState((state) => state.jobs.find((job) => job.method === 'applyPlan' && job.destination === entry.id));
  const backup = useBackupTarget(entry.id);

  const normalPlan = normal.plan.state.status === 'ok' ? readPlan(normal.plan.state.value.plan) : undefined;
  const forcePlan = force.plan.state.status === 'ok' ? readPlan(force.plan.state.value.plan) : undefined;
  const words = normalPlan?.ok ? normalPlan.value.comparison?.explanation : undefined;
  const canApplyNormal = Boolean(normalPlan?.ok && words?.normalReplaceAllowed && normalPlan.value.action === 'replace' && !applying);

  // What a replace did stays on screen when the disk it left no longer offers a replace: one killed
  // between removing the old state and writing the new leaves the folder unmanaged, and the re-read
  // that says so must not take away the words that point at it.
  const replaceOutcome = normal.outcome && (
    <RequestedResult label="Replace outcome">
      <ApplyOutcomeView outcome={normal.outcome} onPlanAgain={normal.makePlan} destination={entry.id} />
    </RequestedResult>
  );

  return (
    <div>
      {unreadable && <UnreadableStateAdvice issue={unreadable} />}
      <section className="action-section" aria-labelledby="plan-from-title">
        <h2 id="plan-from-title">
          <Icon name="package" /> Plan from
        </h2>
        <p>
          Replace and forced replace publish this source bundle, and Repair proves the expected bytes from it: the configured one, or any
          other (an older one to roll back to, a rebuilt one). The contract still decides: a normal replace never publishes an older source
          over a newer one; rolling back takes a forced replace and its typed confirmation.
        </p>
        <SourceBundlePicker entry={entry} value={source} onChange={chooseSource} inputId="actions-source" />
      </section>
      {offered.why && (
        <p className="muted" data-testid="actions-not-offered">
          {offered.why}
        </p>
      )}
      {offered.replace && (
        <section className="action-section" aria-labelledby="replace-title" id={SECTION_GOALS.replace.id} tabIndex={-1}>
          <h2 id="replace-title">
            <Icon name="refresh" /> Replace
          </h2>
          <p>
            Publishes the source bundle above: deletes only the outputs the state file records and the state file itself, then writes the
            new outputs. Extra files are never touched. Allowed when the destination holds an older publication of the same source, or
            nothing yet.
          </p>
          <div className="button-row">
            <button
              type="button"
              className="button"
              onClick={normal.makePlan}
              disabled={normal.plan.state.status === 'loading' || Boolean(applying) || noSource}
            >
              {normalPlan ? 'Plan again' : 'Plan replace'}
            </button>
            {noSource && <span className="muted">The workspace configures no source for this destination: choose one above.</span>}
          </div>
          {normal.plan.state.status === 'loading' && <p role="status">Planning…</p>}
          {normal.plan.state.status === 'error' && (
            <RequestedResult label="Replace refused">
              <PlanError error={normal.plan.state.error} source={source.trim() || entry.source} />
            </RequestedResult>
          )}
          {normalPlan && !normalPlan.ok && <PlanError error={{ code: 'internal', message: normalPlan.error }} />}
          {normalPlan?.ok && words && normal.plan.state.status === 'ok' && (
            <RequestedResult key={normal.plan.state.value.planId} label="Replace plan">
              <Callout tone={words.normalReplaceAllowed ? 'info' : words.tone} title={`Decision: ${words.title}`}>
                <p>{words.sentence}</p>
                {!words.normalReplaceAllowed && words.next && <p className="muted">{words.next}</p>}
              </Callout>
              <PlanDetails plan={normalPlan.value} />
              <div className="button-row">
                <button
                  type="button"
                  className="button primary"
                  disabled={!canApplyNormal}
                  onClick={() =>
                    normal.plan.state.status === 'ok' &&
                    setConfirming({
                      mode: 'replace',
                      plan: normalPlan.value,
                      planId: normal.plan.state.value.planId,
                      confirmation: normal.plan.state.value.confirmation,
                      confirmText: normal.plan.state.value.confirmText ?? entry.id,
                    })
                  }
                >
                  {`${confirmLabel(normalPlan.value)} from ${bundleName(normalPlan.value)}${entry.host !== undefined ? ` on ${entry.host}` : ''}…`}
                </button>
              </div>
            </RequestedResult>
          )}
          {applying && !confirming && normal.plan.state.status !== 'idle' && <JobProgress job={applying} />}
          {replaceOutcome}
        </section>
      )}
      {!offered.replace && replaceOutcome}

      {adoptShown && <FolderCompareSection key={`adopt-${source}`} entry={entry} source={sourceRequest(entry, source)} backup={backup} />}
      {/* A plan belongs to the bundle it was made from: another bundle chosen, the repair plan goes too. */}
      {offered.repair && <RepairSection key={`repair-${source}`} entry={entry} source={sourceRequest(entry, source)} backup={backup} />}
      {discardShown && <DiscardStagingSection entry={entry} backup={backup} />}

      <section
        className="action-section destructive"
        aria-labelledby="force-title-section"
        id={SECTION_GOALS.forcedReplace.id}
        tabIndex={-1}
      >
        <h2 id="force-title-section">
          <Icon name="trash" /> Forced replace
        </h2>
        <p>
          <strong>
            Deletes everything inside <code>{entry.path}</code>
            {host ? ` on host ${host}` : ''}
          </strong>
          , including files that no state file records and any staging folder left by an interrupted replace, then publishes the source. It
          never follows links out of the folder. This is the way out of unmanaged, invalid and conflicting destinations.{' '}
          {backup.target?.enabled
            ? 'What it deletes is kept as a backup first: "Restore this backup" (Backups tab) undoes it.'
            : backup.target
              ? 'Backups are off for this workspace: it cannot be undone.'
              : ''}
        </p>
        <div className="button-row">
          <button
            type="button"
            className="button danger-outline"
            onClick={force.makePlan}
            disabled={force.plan.state.status === 'loading' || Boolean(applying) || noSource}
          >
            {forcePlan ? 'Plan forced replace again' : 'Plan forced replace'}
          </button>
        </div>
        {force.plan.state.status === 'loading' && <p role="status">Planning…</p>}
        {force.plan.state.status === 'error' && (
          <RequestedResult label="Forced replace refused">
            <PlanError error={force.plan.state.error} source={source.trim() || entry.source} />
          </RequestedResult>
        )}
        {forcePlan && !forcePlan.ok && <PlanError error={{ code: 'internal', message: forcePlan.error }} />}
        {forcePlan?.ok && force.plan.state.status === 'ok' && (
          <RequestedResult key={force.plan.state.value.planId} label="Forced replace plan">
            <PlanDetails plan={forcePlan.value} />
            <div className="button-row">
              <button
                type="button"
                className="button danger"
                disabled={Boolean(applying)}
                onClick={() =>
                  force.plan.state.status === 'ok' &&
                  setConfirming({
                    mode: 'force',
                    plan: forcePlan.value,
                    planId: force.plan.state.value.planId,
                    confirmation: force.plan.state.value.confirmation,
                    confirmText: force.plan.state.value.confirmText ?? entry.id,
                  })
                }
              >
                Review and force replace…
              </button>
            </div>
          </RequestedResult>
        )}
        {applying && !confirming && force.plan.state.status !== 'idle' && <JobProgress job={applying} />}
        {force.outcome && !confirming && <ApplyOutcomeView outcome={force.outcome} onPlanAgain={force.makePlan} destination={entry.id} />}
      </section>

      {/* The dialog is the kind's: one confirmed by its typed id (a forced replace) stays open, locked, while it runs. */}
      {confirming && !planKindOf(confirming.mode).confirmsById && (
        <ReplaceConfirmDialog
          destinationId={entry.id}
          plan={confirming.plan}
          confirmation={confirming.confirmation}
          confirmText={confirming.confirmText}
          {...(host ? { host } : {})}
          {...(backup.target ? { backup: backup.target } : {})}
          {...(backup.error !== undefined ? { backupError: backup.error } : {})}
          onCancel={() => setConfirming(undefined)}
          onConfirm={(consent) => {
            // Confirmed, the dialog goes: the tab shows the apply's progress and its outcome.
            const { planId } = confirming;
            setConfirming(undefined);
            void normal.apply(planId, consent);
          }}
        />
      )}
      {confirming && planKindOf(confirming.mode).confirmsById && (
        <ForceReplaceDialog
          plan={confirming.plan}
          confirmText={confirming.confirmText}
          destination={entry.id}
          {...(backup.target ? { backup: backup.target } : {})}
          {...(backup.error !== undefined ? { backupError: backup.error } : {})}
          {...(host ? { host } : {})}
          running={confirming.applying ? applying : undefined}
          applying={Boolean(confirming.applying)}
          outcome={confirming.outcome}
          onPlanAgain={() => {
            setConfirming(undefined);
            force.makePlan();
          }}
          onCancel={() => setConfirming(undefined)}
          onConfirm={(typed, includeNested) => {
            // The dialog stays open and locked while the apply runs, then shows what it did.
            const { planId } = confirming;
            setConfirming((current) => current && { ...current, applying: true });
            void force
              .apply(planId, { confirm: typed, confirmed: true }, includeNested)
              .then((outcome) => setConfirming((current) => current && { ...current, applying: false, outcome }));
          }}
        />
      )}
    </div>
  );
}
