// Confirms a forced replace: says exactly what it destroys, that it cannot be undone, and applies only
// once the operator has typed the destination id and, when the folder holds other managed
// destinations, ticked that they go too (every one is listed). Cancel is the default button.

import { useState } from 'react';
import type { ReplacePlan } from '../../shared/plan';
import { confirmLabel } from '../view/planView';
import { plural } from '../view/format';
import { Dialog } from './Dialog';
import { Icon } from './Icon';

interface Props {
  plan: ReplacePlan;
  confirmText: string;
  onCancel: () => void;
  onConfirm: (typed: string, includeNested: boolean) => void;
}

export function ForceReplaceDialog({ plan, confirmText, onCancel, onConfirm }: Props) {
  const [typed, setTyped] = useState('');
  const [nestedAcknowledged, setNestedAcknowledged] = useState(false);
  const nested = plan.nestedDestinations;
  const matches = typed === confirmText && (nested.length === 0 || nestedAcknowledged);
  const firstDeletes = plan.deletes.slice(0, 5);
  return (
    <Dialog
      title={
        <>
          <Icon name="stop" /> Force replace {confirmText}?
        </>
      }
      labelId="force-title"
      descriptionId="force-description"
      role="alertdialog"
      destructive
      onClose={onCancel}
    >
      <div id="force-description">
        <p>
          This deletes <strong>everything</strong> inside <code>{plan.destinationPath}</code>: {plural(plan.summary.deleteCount, 'path')},
          including files no state file records, then writes {plural(plan.summary.writeCount, 'file')} from <code>{plan.sourcePath}</code>.{' '}
          <strong>It cannot be undone.</strong>
        </p>
        {firstDeletes.length > 0 && (
          <ul className="plan-list">
            {firstDeletes.map((entry) => (
              <li key={entry.path} className="delete">
                <span className="op">delete</span>
                <span className="path">{entry.path}</span>
              </li>
            ))}
            {plan.deletes.length > firstDeletes.length && (
              <li className="delete">
                <span className="op" /> <span className="path">…and {plan.deletes.length - firstDeletes.length} more</span>
              </li>
            )}
          </ul>
        )}
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
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (matches) onConfirm(typed, nested.length > 0 && nestedAcknowledged);
        }}
      >
        {nested.length > 0 && (
          <div className="field checkbox">
            <input
              id="force-nested"
              type="checkbox"
              checked={nestedAcknowledged}
              onChange={(event) => setNestedAcknowledged(event.target.checked)}
            />
            <label htmlFor="force-nested">Delete the {plural(nested.length, 'nested managed destination')} listed above too</label>
          </div>
        )}
        <div className="field">
          <label htmlFor="force-confirm">
            Type <code>{confirmText}</code> to confirm
          </label>
          <input
            id="force-confirm"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <footer>
          <button type="button" className="button" onClick={onCancel} data-autofocus>
            Cancel
          </button>
          <button type="submit" className="button danger" disabled={!matches}>
            {confirmLabel(plan)}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}
