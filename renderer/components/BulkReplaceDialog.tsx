// The one confirmation of a bulk replace (or repair): every destination it will replace with its counts (to
// create, update, delete, unchanged, kept) and the edits it loses, each one's paths a click away, the
// destinations it leaves alone with why, and the sum. Enter or one click on the confirm button (it has
// the focus) applies them one after another; Esc or Cancel applies nothing. Normal replaces only: it
// says so, and never offers a forced one.

import { useState } from 'react';
import type { BulkPlanSummary, BulkRow } from '../view/bulkPlan';
import { bulkConfirmLabel, editsLost, FORCE_NOT_IN_BULK } from '../view/bulkPlan';
import { bulkModeOf, type BulkMode } from '../view/bulkModes';
import { plural } from '../view/format';
import { countsWords } from '../../shared/planCounts';
import { ConfirmFooterForm } from './ConfirmControls';
import { Dialog } from './Dialog';
import { Icon } from './Icon';
import { PlanRowsList } from './PlanRowsList';

interface Props {
  /** A repair rewrites only drifted outputs: its own words, the same list and one confirmation. */
  mode?: BulkMode;
  rows: readonly BulkRow[];
  summary: BulkPlanSummary;
  onCancel: () => void;
  onConfirm: () => void;
}

const PLAN_WORDS = { nothing: 'nothing to do', refused: 'refused', not_planned: 'not planned' } as const;

export function BulkReplaceDialog({ mode = 'replace', rows, summary, onCancel, onConfirm }: Props) {
  const words = bulkModeOf(mode);
  const [open, setOpen] = useState<string | undefined>();
  const planned = rows.flatMap((row) => (row.plan?.kind === 'planned' ? [{ id: row.id, plan: row.plan }] : []));
  const left = rows.flatMap((row) => (row.plan && row.plan.kind !== 'planned' ? [{ id: row.id, plan: row.plan }] : []));
  return (
    <Dialog
      title={
        <>
          <Icon name="refresh" /> {words.title} {plural(summary.planned, 'destination')}?
        </>
      }
      labelId="bulk-confirm-title"
      descriptionId="bulk-confirm-description"
      onClose={onCancel}
    >
      <div id="bulk-confirm-description">
        <p data-testid="bulk-confirm-counts">
          {words.confirmLead} <strong>{countsWords(summary.counts)}</strong> {words.confirmTail}
        </p>
        {summary.changed > 0 && (
          <p role="note" data-testid="bulk-confirm-changed">
            <Icon name="alert" />{' '}
            <strong>
              {plural(summary.changed, 'recorded output')} {summary.changed === 1 ? 'was' : 'were'} changed on disk since published: these
              replaces delete {summary.changed === 1 ? 'it' : 'them'}, and those edits will be lost.
            </strong>
          </p>
        )}
        {words.saysNoForce && (
          <p className="muted" data-testid="bulk-no-force">
            {FORCE_NOT_IN_BULK}
          </p>
        )}
      </div>
      <div className="table-wrap bulk-confirm-list">
        <table>
          <thead>
            <tr>
              <th scope="col">Destination</th>
              <th scope="col">Plan</th>
              <th scope="col">
                <span className="visually-hidden">Paths</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {planned.map(({ id, plan }) => (
              <tr key={id} data-bulk-confirm={id}>
                <th scope="row">{id}</th>
                <td>
                  {countsWords(plan.counts)}
                  {editsLost(plan.plan) > 0 ? ` · ${plural(editsLost(plan.plan), 'edited output')} lost` : ''}
                </td>
                <td>
                  <button
                    type="button"
                    className="button small"
                    aria-expanded={open === id}
                    onClick={() => setOpen((current) => (current === id ? undefined : id))}
                  >
                    {open === id ? 'Hide paths' : 'Paths'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {open !== undefined && planned.find((row) => row.id === open) && (
        <section aria-label={`Every path of ${open}`}>
          <PlanRowsList plan={planned.find((row) => row.id === open)!.plan.plan} />
        </section>
      )}
      {left.length > 0 && (
        <details data-testid="bulk-confirm-left">
          <summary>
            {plural(left.length, 'destination')} not {words.done}
          </summary>
          <ul>
            {left.map(({ id, plan }) => (
              <li key={id}>
                <strong>{id}</strong>: {PLAN_WORDS[plan.kind]}. {plan.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      <ConfirmFooterForm label={bulkConfirmLabel(summary, mode)} onConfirm={onConfirm} onCancel={onCancel} />
    </Dialog>
  );
}
