// Confirms a normal replace: names the counts (the one vocabulary, shared/planCounts.ts, and how many
// edited outputs are lost), lists every path, and asks at the plan's level (docs/confirmations.md):
// backed up, one click on the button that names the counts, or Enter (the button has the focus; Enter
// in the filter does not); with backups off, the destination id typed first. The forced replace keeps
// its own dialog. It says where the backup of what it deletes or overwrites goes, or that backups are
// off. Confirmed, it closes: the Actions tab shows the apply's progress and what it did, and the
// destination's History keeps it.

import type { BackupTargetInfo } from '../../shared/backupSchema';
import type { ConfirmationLevel, ReplacePlan } from '../../shared/plan';
import { onlyCreates, planCounts } from '../../shared/planCounts';
import { bundleName, changedWarning, confirmLabel, planSourceWords, planSummary } from '../view/planView';
import { undoWords, type DialogConsent } from '../view/confirmView';
import { BackupTargetNote } from './BackupTargetNote';
import { LeveledConfirmForm } from './ConfirmControls';
import { Dialog } from './Dialog';
import { Icon } from './Icon';
import { PlanRowsList } from './PlanRowsList';

interface Props {
  destinationId: string;
  plan: ReplacePlan;
  /** How the service asks it to be confirmed, and the id to type at the typed level. */
  confirmation: ConfirmationLevel;
  confirmText: string;
  /** The workspace host the destination is on ("web-1 (ssh://…)"); absent for this machine's. */
  host?: string;
  /** Where its backup goes (listBackups' target), or that backups are off; absent while it is read. */
  backup?: BackupTargetInfo;
  /** Why where the backup goes could not be read. */
  backupError?: string;
  onCancel: () => void;
  onConfirm: (consent: DialogConsent) => void;
}

export function ReplaceConfirmDialog(props: Props) {
  const { destinationId, plan, confirmation, confirmText, host, backup, backupError, onCancel, onConfirm } = props;
  const typedLevel = confirmation === 'typed_id';
  const summary = planSummary(plan);
  // A first publish only creates: there is nothing to lose, nor to undo from a backup.
  const publishes = onlyCreates(planCounts(plan));
  const sourceWords = planSourceWords(plan);
  const changed = changedWarning(plan);
  return (
    <Dialog
      title={
        <>
          <Icon name="refresh" /> Replace {destinationId}
          {host ? ` on host ${host.split(' ')[0]}` : ''}?
        </>
      }
      labelId="replace-confirm-title"
      descriptionId="replace-confirm-description"
      {...(typedLevel ? { role: 'alertdialog' as const, destructive: true } : {})}
      onClose={onCancel}
    >
      <div id="replace-confirm-description">
        <p data-testid="replace-confirm-counts">
          <strong>{confirmLabel(plan)}</strong> in <code>{plan.destinationPath}</code>
          {host && (
            <>
              {' '}
              <strong data-testid="replace-confirm-host">on host {host}</strong>
            </>
          )}
          , from <code>{bundleName(plan)}</code>
          {sourceWords ? ` (${sourceWords})` : ''}
          {summary ? ` (${summary})` : ''}.{' '}
          {publishes ? (
            'Nothing that is there is touched.'
          ) : (
            <>
              Only what the state records is removed; extra files are kept, untouched.{' '}
              <strong>{undoWords(confirmation, backup?.enabled)}</strong>
            </>
          )}
        </p>
        {changed && (
          <p role="note" data-testid="replace-confirm-changed">
            <Icon name="alert" /> <strong>{changed}</strong>
          </p>
        )}
        <BackupTargetNote target={backup} error={backupError} />
      </div>
      <PlanRowsList plan={plan} />
      <LeveledConfirmForm
        confirmation={confirmation}
        confirmText={confirmText}
        fieldId="replace-confirm-typed"
        label={confirmLabel(plan)}
        onCancel={onCancel}
        onConfirm={onConfirm}
      />
    </Dialog>
  );
}
