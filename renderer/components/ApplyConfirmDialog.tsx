// The confirmation of a plan's apply that has no dialog of its own (a repair, a discard of staging):
// its counts in the one vocabulary (shared/planCounts.ts), where its backup goes and whether it can be
// undone, then the confirmation at the plan's level (docs/confirmations.md): one explicit button that
// names the counts when it is backed up, the typed destination id when it is not. Cancel is the
// default button of the typed form; the body lists what the plan does (the section's own list).

import type { ReactNode } from 'react';
import type { BackupTargetInfo } from '../../shared/backupSchema';
import type { ConfirmationLevel, ReplacePlan } from '../../shared/plan';
import { countsBytesWords, keptWords, planCounts, planCountsSentence } from '../../shared/planCounts';
import { planKindOf } from '../../shared/planKinds';
import { undoWords, type DialogConsent } from '../view/confirmView';
import { BackupTargetNote } from './BackupTargetNote';
import { LeveledConfirmForm } from './ConfirmControls';
import { Dialog } from './Dialog';
import { Icon } from './Icon';

interface Props {
  plan: ReplacePlan;
  destinationId: string;
  confirmation: ConfirmationLevel;
  confirmText?: string | undefined;
  /** The workspace host's name, for a destination on one. */
  host?: string | undefined;
  backup?: BackupTargetInfo | undefined;
  backupError?: string | undefined;
  /** What the plan does, path by path (the section's list), below the counts. */
  children?: ReactNode;
  onCancel: () => void;
  onConfirm: (consent: DialogConsent) => void;
}

export function ApplyConfirmDialog(props: Props) {
  const { plan, destinationId, confirmation, confirmText, host, backup, backupError, children, onCancel, onConfirm } = props;
  const counts = planCounts(plan);
  const sentence = planCountsSentence(plan.mode, counts);
  const typedLevel = confirmation === 'typed_id';
  const bytes = countsBytesWords(counts);
  const kept = keptWords(counts);
  return (
    <Dialog
      title={
        <>
          <Icon name={typedLevel ? 'stop' : 'shield'} /> {planKindOf(plan.mode).title} {destinationId}
          {host !== undefined ? ` on host ${host}` : ''}?
        </>
      }
      labelId="apply-confirm-title"
      descriptionId="apply-confirm-description"
      role="alertdialog"
      destructive={typedLevel}
      onClose={onCancel}
    >
      <div id="apply-confirm-description">
        <p data-testid="apply-confirm-counts">
          <strong>{sentence}</strong> in <code>{plan.destinationPath}</code>
          {bytes || kept ? ` (${[bytes, kept].filter(Boolean).join('; ')})` : ''}.
        </p>
        <p>
          <strong>{undoWords(confirmation, backup?.enabled)}</strong>
        </p>
        <BackupTargetNote target={backup} error={backupError} />
      </div>
      {children}
      <LeveledConfirmForm
        confirmation={confirmation}
        confirmText={confirmText}
        fieldId="apply-confirm-typed"
        label={sentence}
        testId="apply-confirm"
        onCancel={onCancel}
        onConfirm={onConfirm}
      />
    </Dialog>
  );
}
