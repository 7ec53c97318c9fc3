// Every path of a plan, one row each, the way `terraform plan` reads: + create, ~ update, - delete,
// = unchanged, · keep (extra). Scrollable and focusable, with a text filter and a toggle per kind; the
// list never says "…and 3 more": what is filtered out is counted, and the filter can be cleared.
// An "Export plan" button saves the plan as JSON (a Blob download, the same in both transports).

import { useId, useMemo, useState } from 'react';
import type { ReplacePlan } from '../../shared/plan';
import { planRows, planRowWord, PLAN_ROW_KINDS, PLAN_ROW_SIGNS, type PlanRowKind } from '../../shared/planRows';
import { plural } from '../view/format';
import { filterPlanRows, planExport, planRowDetail, rowKindWords } from '../view/planRowsView';
import { download } from './download';
import { Icon } from './Icon';

export function ExportPlanButton({ plan }: { plan: ReplacePlan }) {
  return (
    <button
      type="button"
      className="button small"
      onClick={() => {
        const { fileName, content } = planExport(plan);
        download(fileName, 'application/json', content);
      }}
    >
      <Icon name="download" /> Export plan
    </button>
  );
}

export function PlanRowsList({ plan }: { plan: ReplacePlan }) {
  const { rows, totals } = useMemo(() => planRows(plan), [plan]);
  const [text, setText] = useState('');
  const [hidden, setHidden] = useState<ReadonlySet<PlanRowKind>>(new Set());
  const shown = useMemo(() => filterPlanRows(rows, { text, hidden }), [rows, text, hidden]);
  const filterId = useId();
  if (rows.length === 0) return null;
  const toggle = (kind: PlanRowKind) =>
    setHidden((current) => {
      const next = new Set(current);
      if (next.has(kind)) next.delete(kind);
      else next.add(kind);
      return next;
    });
  return (
    <div className="plan-rows" data-testid="plan-rows">
      <div className="plan-rows-toolbar" role="group" aria-label="Filter the plan">
        <label htmlFor={filterId} className="visually-hidden">
          Filter paths
        </label>
        <input
          id={filterId}
          type="search"
          placeholder="Filter paths"
          value={text}
          onChange={(event) => setText(event.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        {PLAN_ROW_KINDS.filter((kind) => totals[kind] > 0).map((kind) => (
          <button
            key={kind}
            type="button"
            className={`button small plan-kind-toggle ${kind}`}
            aria-pressed={!hidden.has(kind)}
            onClick={() => toggle(kind)}
            data-testid={`plan-toggle-${kind}`}
          >
            {PLAN_ROW_SIGNS[kind]} {rowKindWords(rows, kind)}
          </button>
        ))}
        <ExportPlanButton plan={plan} />
      </div>
      {shown.length < rows.length && (
        <p className="muted" role="status" data-testid="plan-rows-shown">
          Showing {shown.length.toLocaleString('en-US')} of {plural(rows.length, 'path')}.{' '}
          <button
            type="button"
            className="button small"
            onClick={() => {
              setText('');
              setHidden(new Set());
            }}
          >
            Show all
          </button>
        </p>
      )}
      {/* Focusable: a long plan scrolls, and a keyboard user must be able to scroll it too. */}
      <ul className="plan-list" aria-label="Every path of the plan" tabIndex={0}>
        {shown.map((row) => (
          <li key={row.path} className={row.changed ? `${row.kind} changed` : row.kind} data-kind={row.kind}>
            <span className="op">
              <span aria-hidden="true">{PLAN_ROW_SIGNS[row.kind]} </span>
              {planRowWord(row)}
            </span>
            <span className="path">{row.path}</span>
            <span className="detail">{planRowDetail(row)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
