// "Restore this backup" (and every Undo): plans the restore of one backup of a destination when it
// opens, shows every path it removes (what the apply wrote, its staging) and puts back (the old
// files and the old state, last), and applies it only once the destination id is typed, as for a
// forced replace. Locked while it runs, with progress; then the engine's result. A refusal, of the
// plan (destination_changed, backup_changed, target_exists…) or of the apply (stale_plan), is said in
// words with what to do next. One dialog for the whole app, opened through the store (openRestore).

import { countsWords, restoreCounts } from '../../shared/planCounts';
import { useEffect, useRef, useState } from 'react';
import type { ApiError } from '../../shared/api';
import type { RestorePlan } from '../../shared/backupSchema';
import { usePlanRestore } from '../hooks/api';
import { useApplyOutcome } from '../hooks/useApplyOutcome';
import { useHostPhrase } from '../hooks/useHostPhrase';
import { closeRestore } from '../state/actions';
import { useAppState } from '../state/store';
import { restoreConfirmLabel, restoreLines, restoreRefusalCode, restoreRefusalWords } from '../view/backupView';
import { formatBytes, plural } from '../view/format';
import { ApplyOutcomeView } from './ApplyOutcome';
import { Callout } from './Callout';
import { TypedConfirmField } from './ConfirmControls';
import { Dialog } from './Dialog';
import { Icon } from './Icon';
import { JobCancelButton, JobProgress } from './JobProgress';

/** The one restore dialog: open while the store holds a restore request. */
export function RestoreHost() {
  const request = useAppState((state) => state.restoreRequest);
  if (!request) return null;
  return (
    <RestoreBackupDialog
      key={`${request.destination}/${request.backupId}`}
      destination={request.destination}
      backupId={request.backupId}
      onClose={closeRestore}
    />
  );
}

export function RefusalCallout({
  error,
  title,
}: {
  error: { code: string; message: string; details?: Record<string, unknown> };
  title?: string;
}) {
  const words = restoreRefusalWords(error);
  return (
    <Callout tone="danger" title={title ?? words?.title ?? 'The restore was refused'} role="alert">
      <p data-testid="restore-refusal" data-code={restoreRefusalCode(error)}>
        {error.message}
      </p>
      {words && <p>{words.next}</p>}
    </Callout>
  );
}

function RestorePlanView({ plan, host }: { plan: RestorePlan; host: string | undefined }) {
  const lines = restoreLines(plan);
  return (
    <div data-testid="restore-plan">
      <p>
        Puts <code>{plan.destinationPath}</code>
        {host && (
          <>
            {' '}
            <strong data-testid="restore-host">on host {host}</strong>
          </>
        )}{' '}
        back exactly as it was before the apply that made backup <code>{plan.backupId}</code>:{' '}
        <strong data-testid="restore-counts">{countsWords(restoreCounts(plan))}</strong> ({formatBytes(plan.summary.putBytes)} put back, the
        old state last). Files it did not write or keep are not touched. No backup is kept of what a restore removes.
      </p>
      <p className="muted">
        From <code>{plan.backupFolder}</code>, {plan.method === 'rename' ? 'moved back by rename' : 'copied back and verified by sha256'}.
      </p>
      <ul className="plan-list recovery" aria-label="Every path the restore removes and puts back" tabIndex={0}>
        {lines.map((line) => (
          <li key={`${line.op}-${line.path}`} className={line.kind}>
            <span className="op">{line.op}</span>
            <span className="path">{line.path}</span>
            <span className="detail">{line.detail}</span>
          </li>
        ))}
      </ul>
      {plan.notKept.length > 0 && (
        <p role="note">
          <Icon name="alert" /> {plural(plan.notKept.length, 'entry', 'entries')} could not be kept and will not come back.
        </p>
      )}
    </div>
  );
}

export function RestoreBackupDialog({ destination, backupId, onClose }: { destination: string; backupId: string; onClose: () => void }) {
  const plan = usePlanRestore();
  const { run: runPlan, reset: resetPlan } = plan;
  const { outcome, apply, clear } = useApplyOutcome(destination);
  const [typed, setTyped] = useState('');
  const [applying, setApplying] = useState(false);
  const running = useAppState((state) => state.jobs.find((job) => job.method === 'applyPlan' && job.destination === destination));
  const close = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  // On a workspace host, the restore runs there, from that host's backups: the dialog names it.
  const host = useHostPhrase(destination);

  const makePlan = () => {
    clear();
    setTyped('');
    void runPlan({ destination, backup: backupId });
  };
  useEffect(() => {
    void runPlan({ destination, backup: backupId });
  }, [runPlan, destination, backupId]);
  useEffect(() => {
    if (outcome) close.current?.focus();
  }, [outcome]);

  const planned = plan.state.status === 'ok' ? plan.state.value : undefined;
  // The plan arrives after the dialog opened: then Cancel takes the focus, so a stray Enter cancels.
  useEffect(() => {
    if (planned) (cancel.current ?? close.current)?.focus();
  }, [planned]);
  const nothingToDo = planned !== undefined && planned.plan.summary.removeCount === 0 && planned.plan.summary.putCount === 0;
  const matches = planned !== undefined && typed === planned.confirmText;

  const confirm = async () => {
    if (!planned || !matches || applying) return;
    setApplying(true);
    await apply({ planId: planned.planId, confirm: typed, confirmed: true }, `Restore ${destination}`);
    setApplying(false);
    resetPlan();
  };
  const refusedApply: ApiError | undefined = outcome?.kind === 'error' ? outcome.error : undefined;

  return (
    <Dialog
      title={
        <>
          <Icon name="refresh" /> Restore {destination} from backup {backupId}
          {host ? ` on host ${host.split(' ')[0]}` : ''}?
        </>
      }
      labelId="restore-title"
      descriptionId="restore-description"
      role="alertdialog"
      destructive
      locked={applying}
      onClose={onClose}
    >
      <div id="restore-description" className="restore-dialog">
        {plan.state.status === 'loading' && <p role="status">Planning the restore…</p>}
        {plan.state.status === 'error' && <RefusalCallout error={plan.state.error} />}
        {planned && <RestorePlanView plan={planned.plan} host={host} />}
        {nothingToDo && (
          <Callout tone="good" title="Nothing to do" role="status">
            <p>The destination is already as the backup keeps it.</p>
          </Callout>
        )}
        {outcome && !refusedApply && <ApplyOutcomeView outcome={outcome} onPlanAgain={makePlan} noun="restore" destination={destination} />}
        {refusedApply && <RefusalCallout error={refusedApply} title="The restore did not run" />}
      </div>
      {planned && !nothingToDo && !outcome ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void confirm();
          }}
        >
          <TypedConfirmField id="restore-confirm" confirmText={planned.confirmText} typed={typed} onType={setTyped} disabled={applying} />
          {applying && (running ? <JobProgress job={running} cancel="footer" /> : <p role="status">Starting the restore…</p>)}
          <footer>
            {applying && running ? (
              <JobCancelButton job={running} />
            ) : (
              <button ref={cancel} type="button" className="button" onClick={onClose} disabled={applying} data-autofocus>
                Cancel
              </button>
            )}
            <button type="submit" className="button danger" disabled={!matches || applying}>
              {applying ? 'Restoring…' : restoreConfirmLabel(planned.plan, host?.split(' ')[0])}
            </button>
          </footer>
        </form>
      ) : (
        <footer>
          {(plan.state.status === 'error' ||
            refusedApply ||
            (outcome?.kind === 'result' && !outcome.result.ok && outcome.result.error?.code !== 'stale_plan')) && (
            <button type="button" className="button" onClick={makePlan}>
              Plan the restore again
            </button>
          )}
          <button ref={close} type="button" className="button" onClick={onClose} data-autofocus>
            Close
          </button>
        </footer>
      )}
    </Dialog>
  );
}
