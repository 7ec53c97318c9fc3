// The Actions tab's Discard staging: on a destination an interrupted apply left a staging folder in,
// plan removing only that folder, showing what it holds (which publication, how many files staged),
// and apply it behind the confirmation its button opens (ApplyConfirmDialog, at the plan's level),
// saying where its backup goes (or that backups are off); its result offers Undo. Nothing else in the destination is touched.

import { useState } from 'react';
import type { DestinationEntry } from '../../shared/api';
import type { DialogConsent } from '../view/confirmView';
import { ApplyConfirmDialog } from './ApplyConfirmDialog';
import { usePlanDiscardStaging } from '../hooks/api';
import { useApplyOutcome } from '../hooks/useApplyOutcome';
import { useHostPhrase } from '../hooks/useHostPhrase';
import { useAppState } from '../state/store';
import { readPlan } from '../view/planView';
import { discardConfirmLabel, stagingWords } from '../view/recoveryView';
import { ApplyOutcomeView } from './ApplyOutcome';
import { BackupTargetNote, type useBackupTarget } from './BackupTargetNote';
import { Callout } from './Callout';
import { Icon } from './Icon';
import { JobProgress } from './JobProgress';
import { RequestedResult } from './RequestedResult';
import { SECTION_GOALS } from '../view/sectionGoals';

/** `backup`: where the destination's next backup goes (ActionsTab's useBackupTarget, loaded once for its sections). */
export function DiscardStagingSection({ entry, backup }: { entry: DestinationEntry; backup: ReturnType<typeof useBackupTarget> }) {
  const plan = usePlanDiscardStaging();
  const { outcome, apply, clear } = useApplyOutcome(entry.id);
  const applying = useAppState((state) => state.jobs.find((job) => job.method === 'applyPlan' && job.destination === entry.id));
  const read = plan.state.status === 'ok' ? readPlan(plan.state.value.plan) : undefined;
  const discard = read?.ok ? read.value : undefined;
  const host = useHostPhrase(entry.id);
  const makePlan = () => {
    clear();
    void plan.run({ destination: entry.id });
  };
  const [confirming, setConfirming] = useState(false);
  const applyDiscard = async (planId: string, consent: DialogConsent) => {
    setConfirming(false);
    await apply({ planId, ...consent }, `Discard staging in ${entry.id}`);
    plan.reset();
  };
  return (
    <section className="action-section" aria-labelledby="discard-title" id={SECTION_GOALS.discardStaging.id} tabIndex={-1}>
      <h2 id="discard-title">
        <Icon name="trash" /> Discard staging
      </h2>
      <p>
        An apply was interrupted here and left its staging folder. Discarding removes only that folder (what it had staged is not in use);
        the state file, the outputs and every other file stay as they are. Like every apply, it keeps what it removes: the folder goes into
        a backup, as it was, and Undo puts it back.
      </p>
      <div className="button-row">
        <button type="button" className="button" onClick={makePlan} disabled={plan.state.status === 'loading' || Boolean(applying)}>
          {discard ? 'Plan again' : 'Plan discarding staging'}
        </button>
      </div>
      {plan.state.status === 'loading' && <p role="status">Reading the staging folder…</p>}
      {plan.state.status === 'error' && (
        <Callout tone="danger" title="Discarding staging was refused" role="alert">
          <p>{plan.state.error.message}</p>
        </Callout>
      )}
      {read && !read.ok && (
        <Callout tone="danger" title="Discarding staging was refused" role="alert">
          <p>{read.error}</p>
        </Callout>
      )}
      {discard && plan.state.status === 'ok' && (
        <RequestedResult key={plan.state.value.planId} label="Discard staging plan" testId="plan-discard">
          {host && (
            <p>
              In <code>{discard.destinationPath}</code> <strong data-testid="discard-host">on host {host}</strong>:
            </p>
          )}
          <ul className="staging-list">
            {(discard.staging ?? []).map((folder) => (
              <li key={folder.name}>
                <code>{folder.name}/</code>
                {stagingWords(folder).map((sentence) => (
                  <p key={sentence}>{sentence}</p>
                ))}
              </li>
            ))}
          </ul>
          <BackupTargetNote target={backup.target} error={backup.error} />
          <div className="button-row">
            <button
              type="button"
              className="button danger-outline"
              disabled={Boolean(applying)}
              onClick={() => setConfirming(true)}
              data-testid="discard-review"
            >
              {discardConfirmLabel(discard, entry.host)}
            </button>
          </div>
          {confirming && (
            <ApplyConfirmDialog
              plan={discard}
              destinationId={entry.id}
              confirmation={plan.state.value.confirmation}
              confirmText={plan.state.value.confirmText}
              host={entry.host}
              backup={backup.target}
              backupError={backup.error}
              onCancel={() => setConfirming(false)}
              onConfirm={(consent) => plan.state.status === 'ok' && void applyDiscard(plan.state.value.planId, consent)}
            />
          )}
        </RequestedResult>
      )}
      {applying && plan.state.status === 'ok' && <JobProgress job={applying} />}
      {outcome && (
        <RequestedResult label="Discard staging outcome">
          <ApplyOutcomeView outcome={outcome} onPlanAgain={makePlan} noun="discard" destination={entry.id} />
        </RequestedResult>
      )}
    </section>
  );
}
