// "Compare with a source bundle" on an unmanaged destination (its Actions and Compare tabs): the folder
// compare before anything is deleted (FolderCompareTable.tsx), and, when every file the source
// publishes already matches, Adopt: planned, confirmed in a dialog that names what is written (only
// the state file; nothing moved or deleted; the extras kept), applied through the one applyPlan job,
// journaled and undoable. When the folder cannot be adopted it names the files that stop it and
// points at the forced replace, the way out today.

import { useState } from 'react';
import type { DestinationEntry } from '../../shared/api';
import { adoptWritesText, folderCountsText } from '../../shared/folderCompare';
import type { ConfirmationLevel, ReplacePlan } from '../../shared/plan';
import { useCompareFolder, usePlanAdopt } from '../hooks/api';
import { useApplyOutcome } from '../hooks/useApplyOutcome';
import { useHostPhrase } from '../hooks/useHostPhrase';
import { useAppState } from '../state/store';
import type { DialogConsent } from '../view/confirmView';
import { plural } from '../view/format';
import { readPlan } from '../view/planView';
import { SECTION_GOALS, type GoTo } from '../view/sectionGoals';
import { ApplyOutcomeView } from './ApplyOutcome';
import type { useBackupTarget } from './BackupTargetNote';
import { Callout } from './Callout';
import { LeveledConfirmForm } from './ConfirmControls';
import { Dialog } from './Dialog';
import { FolderCompareTable } from './FolderCompareTable';
import { Icon } from './Icon';
import { JobProgress } from './JobProgress';
import { RequestedResult, reveal } from './RequestedResult';

interface Props {
  entry: DestinationEntry;
  /** The source chosen on the tab ({} for the configured one). */
  source: { source?: string };
  backup: ReturnType<typeof useBackupTarget>;
  /** Opens the Forced replace section (the Compare tab's way there); without it, the section on this tab is revealed. */
  onGoTo?: GoTo | undefined;
}

/** A planned adopt, with the level the service offered it at (docs/confirmations.md). */
interface AdoptToConfirm {
  planId: string;
  plan: ReplacePlan;
  confirmation: ConfirmationLevel;
  confirmText?: string | undefined;
}

function AdoptConfirmDialog({
  adopt,
  destinationId,
  host,
  undoable,
  onCancel,
  onConfirm,
}: {
  adopt: AdoptToConfirm;
  destinationId: string;
  host: string | undefined;
  undoable: boolean | undefined;
  onCancel: () => void;
  onConfirm: (consent: DialogConsent) => void;
}) {
  const { plan, confirmation, confirmText } = adopt;
  const outputs = plan.newState?.outputs.length ?? 0;
  const extras = plan.extras ?? [];
  return (
    <Dialog
      title={
        <>
          <Icon name="shield" /> Adopt {destinationId}
          {host ? ` on host ${host.split(' ')[0]}` : ''}?
        </>
      }
      labelId="adopt-confirm-title"
      descriptionId="adopt-confirm-description"
      onClose={onCancel}
    >
      <div id="adopt-confirm-description">
        <p data-testid="adopt-confirm-writes">
          In <code>{plan.destinationPath}</code>
          {host ? ` on host ${host}` : ''}: <strong>{adoptWritesText(outputs, extras.length)}</strong>
        </p>
        <p>
          The state records pipeline <code>{plan.newState?.pipeline_id}</code>, destination <code>{plan.newState?.destination_id}</code> and
          source <code>{plan.newState?.source.manifest.id}</code>. Every file is hashed again first: if anything changed since this plan,
          nothing is written.
        </p>
        <p className="muted">
          {undoable === false
            ? 'Backups are off for this workspace: to undo, delete .distributor.json by hand.'
            : 'It is journaled and kept as a backup: Undo removes the state file again, and nothing else.'}
        </p>
      </div>
      {/* Without a backup the undo is by hand: the service asks the typed id then, like every unbacked apply. */}
      <LeveledConfirmForm
        confirmation={confirmation}
        confirmText={confirmText}
        fieldId="adopt-confirm-typed"
        label="Adopt: write the state file"
        danger={false}
        onCancel={onCancel}
        onConfirm={onConfirm}
      />
    </Dialog>
  );
}

export function FolderCompareSection({ entry, source, backup, onGoTo }: Props) {
  const compare = useCompareFolder();
  const plan = usePlanAdopt();
  const { outcome, apply, clear } = useApplyOutcome(entry.id);
  const [confirming, setConfirming] = useState<AdoptToConfirm | undefined>();
  const applying = useAppState((state) => state.jobs.find((job) => job.method === 'applyPlan' && job.destination === entry.id));
  const host = useHostPhrase(entry.id);
  const compared = compare.state.status === 'ok' ? compare.state.value : undefined;
  const runCompare = () => {
    clear();
    plan.reset();
    void compare.run({ destination: entry.id, ...source });
  };
  const planAdopt = async () => {
    clear();
    const answer = await plan.run({ destination: entry.id, ...source });
    if (answer.status !== 'ok') return;
    const read = readPlan(answer.value.plan);
    const { planId, confirmation, confirmText } = answer.value;
    if (read.ok) setConfirming({ planId, plan: read.value, confirmation, confirmText });
  };
  const goToForcedReplace = () => {
    if (onGoTo) return onGoTo('forcedReplace');
    const section = document.getElementById(SECTION_GOALS.forcedReplace.id);
    reveal(section);
    section?.focus();
  };
  return (
    <section className="action-section" aria-labelledby="folder-compare-title" data-testid="folder-compare-section">
      <h2 id="folder-compare-title">
        <Icon name="search" /> Compare with a source bundle
      </h2>
      <p>
        Before anything is deleted: which files of this folder already are what the source bundle publishes, which differ, which are
        missing, and what else is here. When every file matches, <strong>Adopt</strong> writes only the state file: no other byte is
        written, moved or deleted, and extra files stay.
      </p>
      <div className="button-row">
        <button
          type="button"
          className="button"
          onClick={runCompare}
          disabled={compare.state.status === 'loading' || Boolean(applying)}
          data-testid="folder-compare-run"
        >
          {compared ? 'Compare again' : 'Compare with the source bundle'}
        </button>
      </div>
      {compare.state.status === 'loading' && <p role="status">Comparing: hashing every file the source publishes…</p>}
      {compare.state.status === 'error' && (
        <Callout tone="danger" title="The folder compare was refused" role="alert">
          <p>{compare.state.error.message}</p>
        </Callout>
      )}
      {compared && compare.state.status === 'ok' && (
        <RequestedResult key={`${compared.source.path}@${compared.counts.matches}`} label="Folder compare" testId="folder-compare-result">
          <p data-testid="folder-compare-counts">
            <strong>{folderCountsText(compared.counts)}</strong> with <code>{compared.source.id}</code> (created {compared.source.created})
          </p>
          <FolderCompareTable compare={compared} />
          {compared.adoptable ? (
            <Callout tone="good" title="Every file the source publishes is already here" role="status">
              <p>
                {plural(compared.counts.matches, 'file')} match byte for byte. Adopting writes only <code>.distributor.json</code> recording
                them; the folder is then managed.{' '}
                {compared.counts.extra > 0 &&
                  `${plural(compared.counts.extra, 'extra entry', 'extra entries')} ${compared.counts.extra === 1 ? 'stays as it is' : 'stay as they are'}.`}
              </p>
              <div className="button-row">
                <button
                  type="button"
                  className="button primary"
                  onClick={() => void planAdopt()}
                  disabled={plan.state.status === 'loading' || Boolean(applying)}
                  data-testid="adopt-plan"
                >
                  Adopt…
                </button>
              </div>
            </Callout>
          ) : (
            <div data-testid="adopt-blockers">
              <Callout tone="warning" title="This folder cannot be adopted" role="status">
                <ul>
                  {compared.blockers.map((blocker) => (
                    <li key={blocker.code}>{blocker.message}</li>
                  ))}
                </ul>
                <p>A forced replace publishes the source here: it deletes everything in the folder first (kept in a backup).</p>
                <div className="button-row">
                  <button type="button" className="button danger-outline" onClick={goToForcedReplace}>
                    Go to Forced replace
                  </button>
                </div>
              </Callout>
            </div>
          )}
        </RequestedResult>
      )}
      {plan.state.status === 'loading' && <p role="status">Planning the adopt…</p>}
      {plan.state.status === 'error' && (
        <Callout tone="danger" title="The adopt was refused" role="alert">
          <p>{plan.state.error.message}</p>
        </Callout>
      )}
      {applying && plan.state.status !== 'idle' && <JobProgress job={applying} />}
      {outcome && (
        <RequestedResult label="Adopt outcome">
          <ApplyOutcomeView outcome={outcome} onPlanAgain={runCompare} noun="adopt" destination={entry.id} />
        </RequestedResult>
      )}
      {confirming && (
        <AdoptConfirmDialog
          adopt={confirming}
          destinationId={entry.id}
          host={host}
          undoable={backup.target?.enabled}
          onCancel={() => setConfirming(undefined)}
          onConfirm={(consent) => {
            const { planId } = confirming;
            setConfirming(undefined);
            void apply({ planId, ...consent }, `Adopt ${entry.id}`).then(() => plan.reset());
          }}
        />
      )}
    </section>
  );
}
