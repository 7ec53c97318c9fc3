// Confirms a forced replace: says exactly what it destroys, where its backup goes (or that backups are
// off, so it cannot be undone), and applies only
// once the operator has typed the destination id and, when the folder holds other managed
// destinations, ticked that they go too (every one is listed, as is every path of the plan, filterable). Cancel is the default button. While the
// apply runs the dialog stays open and locked (no Esc, no click outside), then shows what the apply did.

import { useEffect, useRef, useState } from 'react';
import type { BackupTargetInfo } from '../../shared/backupSchema';
import type { ReplacePlan } from '../../shared/plan';
import type { JobView } from '../state/store';
import { confirmLabel, planSourceWords, rollbackWarning } from '../view/planView';
import { plural } from '../view/format';
import { TypedConfirmField } from './ConfirmControls';
import { Dialog } from './Dialog';
import { ApplyOutcomeView, type ApplyOutcome } from './ApplyOutcome';
import { BackupTargetNote } from './BackupTargetNote';
import { Icon } from './Icon';
import { JobCancelButton, JobProgress } from './JobProgress';
import { PlanRowsList } from './PlanRowsList';

interface Props {
  plan: ReplacePlan;
  confirmText: string;
  /** Where its backup goes (listBackups' target), or that backups are off; absent while it is read. */
  backup?: BackupTargetInfo;
  /** Why where the backup goes could not be read. */
  backupError?: string;
  /** The destination's id: its result's kept backup offers Undo. */
  destination?: string;
  /** The workspace host the destination is on ("web-1 (ssh://…)"); absent for this machine's. */
  host?: string;
  /** The apply has been confirmed and runs: the dialog cannot be dismissed and nothing in it can be changed. */
  applying?: boolean;
  /** Its job, for the progress bar. */
  running?: JobView;
  /** What the apply did, once it ended: shown in place of the confirmation. */
  outcome?: ApplyOutcome;
  onPlanAgain?: () => void;
  onCancel: () => void;
  onConfirm: (typed: string, includeNested: boolean) => void;
}

export function ForceReplaceDialog({
  plan,
  confirmText,
  backup,
  backupError,
  destination,
  host,
  applying = false,
  running,
  outcome,
  onPlanAgain,
  onCancel,
  onConfirm,
}: Props) {
  const [typed, setTyped] = useState('');
  const [nestedAcknowledged, setNestedAcknowledged] = useState(false);
  const nested = plan.nestedDestinations;
  const matches = typed === confirmText && (nested.length === 0 || nestedAcknowledged);
  const close = useRef<HTMLButtonElement>(null);
  // Once the result is in, focus goes to Close (the confirm button it replaced is gone).
  useEffect(() => {
    if (outcome) close.current?.focus();
  }, [outcome]);
  const sourceWords = planSourceWords(plan);
  const rollback = rollbackWarning(plan);
  return (
    <Dialog
      title={
        <>
          <Icon name="stop" /> Force replace {confirmText}
          {host ? ` on host ${host.split(' ')[0]}` : ''}?
        </>
      }
      labelId="force-title"
      descriptionId="force-description"
      role="alertdialog"
      destructive
      locked={applying}
      onClose={onCancel}
    >
      <div id="force-description">
        <p>
          This deletes <strong>everything</strong> inside <code>{plan.destinationPath}</code>
          {host && (
            <>
              {' '}
              <strong data-testid="force-host">on host {host}</strong>
            </>
          )}
          : {plural(plan.summary.deleteCount, 'path')}, including files no state file records, then writes{' '}
          {plural(plan.summary.writeCount, 'file')} from the source bundle <code data-testid="force-source">{plan.sourcePath}</code>
          {sourceWords ? ` (${sourceWords})` : ''}.{' '}
          <strong>
            {backup?.enabled
              ? 'Everything it deletes is kept as a backup first, so it can be undone.'
              : backup
                ? 'It cannot be undone.'
                : ''}
          </strong>
        </p>
        <BackupTargetNote target={backup} error={backupError} />
        {rollback && (
          <p role="note" data-testid="force-rollback">
            <Icon name="alert" /> <strong>{rollback}</strong>
          </p>
        )}
        <PlanRowsList plan={plan} />
        {nested.length > 0 && (
          <div className="callout tone-danger" role="note" data-testid="nested-destinations">
            <p>
              <strong>It also deletes {plural(nested.length, 'other managed destination')} inside this folder</strong>, each with its own
              state file and outputs:
            </p>
            <ul className="plan-list">
              {nested.map((folder) => (
                <li key={folder} className="delete">
                  <span className="op">delete</span>
                  <span className="path">{folder}/</span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
      {outcome ? (
        <>
          <ApplyOutcomeView
            outcome={outcome}
            onPlanAgain={onPlanAgain ?? onCancel}
            {...(destination !== undefined ? { destination, onUndo: onCancel } : {})}
          />
          <footer>
            <button ref={close} type="button" className="button" onClick={onCancel}>
              Close
            </button>
          </footer>
        </>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (matches && !applying) onConfirm(typed, nested.length > 0 && nestedAcknowledged);
          }}
        >
          {nested.length > 0 && (
            <div className="field checkbox">
              <input
                id="force-nested"
                type="checkbox"
                checked={nestedAcknowledged}
                onChange={(event) => setNestedAcknowledged(event.target.checked)}
                disabled={applying}
              />
              <label htmlFor="force-nested">Delete the {plural(nested.length, 'nested managed destination')} listed above too</label>
            </div>
          )}
          <TypedConfirmField id="force-confirm" confirmText={confirmText} typed={typed} onType={setTyped} disabled={applying} />
          {applying && (running ? <JobProgress job={running} cancel="footer" /> : <p role="status">Starting the forced replace…</p>)}
          <footer>
            {applying && running ? (
              <JobCancelButton job={running} />
            ) : (
              <button type="button" className="button" onClick={onCancel} disabled={applying} data-autofocus>
                Cancel
              </button>
            )}
            <button type="submit" className="button danger" disabled={!matches || applying}>
              {applying ? 'Replacing…' : confirmLabel(plan)}
            </button>
          </footer>
        </form>
      )}
    </Dialog>
  );
}
