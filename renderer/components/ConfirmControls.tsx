// The two ways our dialogs take a confirmation, written once: one click or Enter on a button that
// names what happens (a replace, a bulk replace), and the destination id typed for what deletes more
// (a forced replace, a restore).

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
