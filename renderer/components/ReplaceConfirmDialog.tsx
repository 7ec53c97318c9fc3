// Confirms a normal replace: names the counts (the plan's totals per kind, and how many edited outputs
// are lost), lists every path, and applies with one click on the button that names them, or Enter (the
// button has the focus; Enter in the filter does not). A normal replace never touches extra files, so it
// asks for no typed id; the forced replace keeps its own dialog. It says where the backup of what it
// deletes or overwrites goes, or that backups are off. Confirmed, it closes: the Actions tab
// shows the apply's progress and what it did, and the destination's History keeps it.

import type { BackupTargetInfo } from '../../shared/backupSchema';
import type { ReplacePlan } from '../../shared/plan';
import { planRows } from '../../shared/planRows';
import { bundleName, changedWarning, confirmLabel, planSourceWords, planTotalsWords } from '../view/planView';
import { plural } from '../view/format';
import { BackupTargetNote } from './BackupTargetNote';
import { ConfirmFooterForm } from './ConfirmControls';
import { Dialog } from './Dialog';
import { Icon } from './Icon';
import { PlanRowsList } from './PlanRowsList';

interface Props {
  destinationId: string;
  plan: ReplacePlan;
  /** The workspace host the destination is on ("web-1 (ssh://…)"); absent for this machine's. */
  host?: string;
  /** Where its backup goes (listBackups' target), or that backups are off; absent while it is read. */
  backup?: BackupTargetInfo;
  /** Why where the backup goes could not be read. */
  backupError?: string;
  onCancel: () => void;
  onConfirm: () => void;
}

export function ReplaceConfirmDialog({ destinationId, plan, host, backup, backupError, onCancel, onConfirm }: Props) {
  const { totals } = planRows(plan);
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
      onClose={onCancel}
    >
      <div id="replace-confirm-description">
        <p data-testid="replace-confirm-counts">
          <strong>{planTotalsWords(totals)}</strong> in <code>{plan.destinationPath}</code>
          {host && (
            <>
              {' '}
              <strong data-testid="replace-confirm-host">on host {host}</strong>
            </>
          )}
          : deletes {plural(plan.summary.deleteCount, 'path')} the state records (the state file among them) and writes{' '}
          {plural(plan.summary.writeCount, 'file')} from <code>{bundleName(plan)}</code>
          {sourceWords ? ` (${sourceWords})` : ''}.{' '}
          {totals.keep > 0 ? `${plural(totals.keep, 'extra file')} ${totals.keep === 1 ? 'is' : 'are'} kept, untouched.` : ''}
        </p>
        {changed && (
          <p role="note" data-testid="replace-confirm-changed">
            <Icon name="alert" /> <strong>{changed}</strong>
          </p>
        )}
        <BackupTargetNote target={backup} error={backupError} />
      </div>
      <PlanRowsList plan={plan} />
      <ConfirmFooterForm label={confirmLabel(plan)} onConfirm={onConfirm} onCancel={onCancel} />
    </Dialog>
  );
}
