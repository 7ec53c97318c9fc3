// The two ways our dialogs take a confirmation, written once: one click or Enter on a button that
// names what happens (a replace, a bulk replace), and the destination id typed for what deletes more
// (a forced replace, a restore); and the form that asks either, at the level a plan asks for.

import { useState } from 'react';
import type { ConfirmationLevel } from '../../shared/plan';
import { consentOf, mayConfirm, type DialogConsent } from '../view/confirmView';

/** Cancel and the confirm button in a form, so Enter confirms; the confirm button takes the focus. */
export function ConfirmFooterForm({ label, onConfirm, onCancel }: { label: string; onConfirm: () => void; onCancel: () => void }) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onConfirm();
      }}
    >
      <footer>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button primary" data-autofocus>
          {label}
        </button>
      </footer>
    </form>
  );
}

/** "Type ID to confirm" and its field: never autocompleted or spell-checked, so nothing is typed for the operator. */
export function TypedConfirmField({
  id,
  confirmText,
  typed,
  onType,
  disabled,
}: {
  id: string;
  confirmText: string;
  typed: string;
  onType: (text: string) => void;
  disabled: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>
        Type <code>{confirmText}</code> to confirm
      </label>
      <input
        id={id}
        value={typed}
        onChange={(event) => onType(event.target.value)}
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
      />
    </div>
  );
}

/**
 * The confirmation at a plan's level (docs/confirmations.md): at `explicit`, the button that names
 * the counts, focused, so Enter confirms; at `typed_id`, the id typed first, and Cancel the default.
 * The confirm button is red at the typed level unless `danger` says otherwise (adopt writes only a
 * state file, whatever the level).
 */
export function LeveledConfirmForm({
  confirmation,
  confirmText,
  fieldId,
  label,
  testId,
  danger,
  onCancel,
  onConfirm,
}: {
  confirmation: ConfirmationLevel;
  confirmText: string | undefined;
  fieldId: string;
  label: string;
  testId?: string;
  danger?: boolean;
  onCancel: () => void;
  onConfirm: (consent: DialogConsent) => void;
}) {
  const [typed, setTyped] = useState('');
  const typedLevel = confirmation === 'typed_id';
  const allowed = mayConfirm(confirmation, confirmText, typed);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (allowed) onConfirm(consentOf(confirmation, typed));
      }}
    >
      {typedLevel && confirmText !== undefined && (
        <TypedConfirmField id={fieldId} confirmText={confirmText} typed={typed} onType={setTyped} disabled={false} />
      )}
      <footer>
        <button type="button" className="button" onClick={onCancel} {...(typedLevel ? { 'data-autofocus': true } : {})}>
          Cancel
        </button>
        <button
          type="submit"
          className={`button ${(danger ?? typedLevel) ? 'danger' : 'primary'}`}
          disabled={!allowed}
          {...(testId ? { 'data-testid': testId } : {})}
          {...(typedLevel ? {} : { 'data-autofocus': true })}
        >
          {label}
        </button>
      </footer>
    </form>
  );
}
