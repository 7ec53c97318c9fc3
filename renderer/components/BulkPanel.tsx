// The right pane when two or more destinations are selected: who they are, and what can be done to all
// of them: Verify N (the verify job with those ids), Plan repair for N (each one's drifted outputs
// rewritten from its source), Plan replace for N (a normal replace of each against
// its configured source, each one's answer on its row), one confirmation listing them all, then each
// applied in turn with its outcome on its row, a Cancel that stops before the next one. A forced
// replace is never offered here (the panel and the dialog say so).

import { useState } from 'react';
import { applyAftermathText } from '../../shared/plan';
import { verify } from '../state/actions';
import { applyBulkReplace, discardBulk, planBulk, stopBulk } from '../state/bulk';
import { selectAll } from '../view/multiSelection';
import { selectionPatch } from '../state/selectionActions';
import { store, useAppState } from '../state/store';
import {
  bulkOutcomeSentence,
  bulkOutcomeSummary,
  bulkPlanSentence,
  bulkPlanSummary,
  DRIFTED_TITLE,
  editsLost,
  FORCE_NOT_IN_BULK,
  nothingGroups,
  type BulkRow,
  type BulkRun,
} from '../view/bulkPlan';
import { BULK_MODE_ORDER, bulkModeOf, type BulkMode } from '../view/bulkModes';
import { plural } from '../view/format';
import { countsWords } from '../../shared/planCounts';
import { BulkReplaceDialog } from './BulkReplaceDialog';
import { Callout } from './Callout';
import { Icon } from './Icon';
import { JobProgress } from './JobProgress';
import { StatusBadge, VerifyMark } from './StatusBadge';

const sameIds = (run: BulkRun, ids: readonly string[]) => run.ids.length === ids.length && run.ids.every((id, index) => id === ids[index]);

function PlanCell({ row, phase }: { row: BulkRow; phase: BulkRun['phase'] | undefined }) {
  const plan = row.plan;
  if (!plan) return <span className="muted">{phase === 'planning' ? 'waiting to be planned' : ''}</span>;
  if (plan.kind === 'planned')
    return (
      <span data-plan="planned">
        <Icon name="refresh" /> {countsWords(plan.counts)}
        {editsLost(plan.plan) > 0 ? ` · ${plural(editsLost(plan.plan), 'edited output')} lost` : ''}
      </span>
    );
  const word = plan.kind === 'nothing' ? 'Nothing to do' : plan.kind === 'refused' ? 'Refused' : 'Not planned';
  // A reason shared by many rows is said once, above the table (nothingGroups); the row names it.
  if (plan.kind === 'nothing' && plan.title !== undefined)
    return (
      <span data-plan="nothing">
        <strong>{word}.</strong> {plan.title}.
      </span>
    );
  return (
    <span data-plan={plan.kind}>
      <strong>{word}.</strong> {plan.reason}
      {'next' in plan && plan.next && <span className="muted"> {plan.next}</span>}
    </span>
  );
}

function OutcomeCell({ row, mode }: { row: BulkRow; mode: BulkMode }) {
  const job = useAppState((state) => state.jobs.find((candidate) => candidate.method === 'applyPlan' && candidate.destination === row.id));
  const apply = row.apply;
  if (apply === undefined) return null;
  if (apply === 'waiting') return <span className="muted">waiting for its turn</span>;
  if (apply === 'applying') return job ? <JobProgress job={job} compact /> : <span role="status">applying…</span>;
  if (apply.kind === 'replaced') {
    const words = bulkModeOf(mode);
    return (
      <span data-outcome={words.done}>
        <Icon name="check" /> <strong>{words.doneTitle}:</strong> {words.doneWork(apply.result)} in {Math.round(apply.result.durationMs)} ms
      </span>
    );
  }
  if (apply.kind === 'not_run')
    return (
      <span data-outcome="not_run">
        <strong>Not run.</strong> {apply.reason}
      </span>
    );
  return (
    <span data-outcome={apply.kind}>
      <Icon name="alert" /> <strong>{apply.kind === 'refused' ? 'Refused' : 'Failed'}:</strong> {apply.reason}
      {apply.kind === 'failed' && <span className="muted"> {applyAftermathText(apply.result)}</span>}
    </span>
  );
}

function BulkTable({ ids, run }: { ids: readonly string[]; run: BulkRun | undefined }) {
  const table = useAppState((state) => state.destinationTable);
  const rows = new Map((run?.rows ?? []).map((row) => [row.id, row]));
  return (
    <div className="table-wrap">
      <table className="bulk-table">
        <thead>
          <tr>
            <th scope="col">Destination</th>
            <th scope="col">Status</th>
            <th scope="col">Plan</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {ids.map((id) => {
            const row = table.row(id);
            const bulkRow = rows.get(id) ?? { id };
            return (
              <tr key={id} data-bulk-row={id}>
                <th scope="row">
                  {id}
                  {row?.relativePath && <div className="muted small">{row.relativePath}</div>}
                </th>
                <td>
                  <StatusBadge status={row?.status} />{' '}
                  {row?.status === 'managed' && <VerifyMark mark={row.verify} compact verified={row.verified} />}
                </td>
                <td data-testid="bulk-plan">
                  <PlanCell row={bulkRow} phase={run?.phase} />
                </td>
                <td data-testid="bulk-outcome">
                  <OutcomeCell row={bulkRow} mode={run?.mode ?? 'replace'} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** One bulk action (a row of renderer/view/bulkModes.ts): its plan button, the run's summaries, and Cancel the rest. */
function RunSection({
  mode,
  ids,
  run,
  busy,
  onReview,
}: {
  mode: BulkMode;
  ids: readonly string[];
  run: BulkRun | undefined;
  busy: boolean;
  onReview: () => void;
}) {
  const words = bulkModeOf(mode);
  const planSummary = run ? bulkPlanSummary(run.rows) : undefined;
  const outcome = run && (run.phase === 'applying' || run.phase === 'done') ? bulkOutcomeSummary(run.rows) : undefined;
  const groups = run ? nothingGroups(run.rows) : [];
  const count = ids.length.toLocaleString('en-US');
  return (
    <section className="action-section" aria-labelledby={`bulk-${mode}-title`}>
      <h2 id={`bulk-${mode}-title`}>
        <Icon name={words.icon} /> {words.title}
      </h2>
      <p>{words.about}</p>
      {words.saysNoForce && (
        <p className="muted" data-testid="bulk-no-force-note">
          {FORCE_NOT_IN_BULK}
        </p>
      )}
      <div className="button-row">
        <button type="button" className="button" onClick={() => void planBulk(ids, mode)} disabled={busy}>
          {run ? `Plan ${words.verb} for ${count} again` : `Plan ${words.verb} for ${count}`}
        </button>
        {run?.phase === 'planned' && planSummary && (
          <>
            <button type="button" className="button primary" disabled={planSummary.planned === 0} onClick={onReview}>
              Review and {words.verb} {plural(planSummary.planned, 'destination')}…
            </button>
            <button type="button" className="button" onClick={discardBulk}>
              Discard plans
            </button>
          </>
        )}
        {(run?.phase === 'planning' || run?.phase === 'applying') && (
          <button type="button" className="button" onClick={stopBulk} disabled={run.stopping}>
            {run.stopping ? 'Stopping after this one…' : 'Cancel the rest'}
          </button>
        )}
      </div>
      {planSummary && (
        <p role="status" data-testid={words.planSummaryTestId}>
          Plan: {bulkPlanSentence(planSummary)}
          {planSummary.planned > 0 ? ` (${countsWords(planSummary.counts)} in all)` : ''}.
        </p>
      )}
      {groups.map((group) => (
        <Callout key={group.title} tone="info" title={`${plural(group.ids.length, 'destination')}: nothing to do (${group.title})`}>
          {group.next && <p data-testid="bulk-nothing-next">{group.next}</p>}
          {words.offersRepairOfDrifted && group.title === DRIFTED_TITLE && (
            <div className="button-row">
              <button type="button" className="button" onClick={() => void planBulk(group.ids, 'repair')} disabled={busy}>
                Plan repair for {group.ids.length.toLocaleString('en-US')}
              </button>
            </div>
          )}
        </Callout>
      ))}
      {outcome && (
        <p role="status" data-testid={words.outcomeSummaryTestId}>
          {run?.phase === 'done' ? 'Done' : 'Applying'}: {bulkOutcomeSentence(outcome, mode)}.
        </p>
      )}
    </section>
  );
}

export function BulkPanel({ ids, hidden }: { ids: readonly string[]; hidden: number }) {
  const bulk = useAppState((state) => state.bulk);
  const verifying = useAppState((state) => state.jobs.some((job) => job.method === 'verify'));
  const managed = useAppState((state) => ids.filter((id) => state.destinationTable.row(id)?.status === 'managed').length);
  const [verified, setVerified] = useState<{ intact: number; drifted: number; skipped: number } | { error: string } | undefined>();
  const [confirming, setConfirming] = useState(false);
  // The run shown is the one of exactly these destinations; another one still applying is pointed at.
  const run = bulk && sameIds(bulk, ids) ? bulk : undefined;
  const elsewhere = bulk && !run && (bulk.phase === 'applying' || bulk.phase === 'planning') ? bulk : undefined;
  const busy = run?.phase === 'planning' || run?.phase === 'applying' || elsewhere !== undefined;
  const planSummary = run ? bulkPlanSummary(run.rows) : undefined;

  const runVerify = async () => {
    setVerified(undefined);
    const answer = await verify([...ids]);
    if (answer.ok) setVerified(answer.value);
    else if (answer.error.code !== 'cancelled') setVerified({ error: answer.error.message });
  };

  return (
    <main className="detail" aria-labelledby="bulk-title">
      <header className="detail-header">
        <h1 id="bulk-title">{plural(ids.length, 'destination')} selected</h1>
        <div className="path">
          {hidden > 0 ? `${plural(hidden, 'of them is', 'of them are')} hidden by the filter, and still selected. ` : ''}
          Ctrl/cmd-click adds or removes one, shift-click selects a range, <kbd>Esc</kbd> clears.
        </div>
      </header>
      <div className="tab-panel bulk-panel">
        {elsewhere && (
          <Callout tone="info" title="A bulk replace of other destinations is running" role="status">
            <p>
              {plural(elsewhere.ids.length, 'destination')} ({elsewhere.ids.slice(0, 3).join(', ')}
              {elsewhere.ids.length > 3 ? ', …' : ''}): one apply runs at a time, so nothing else is planned until it ends.
            </p>
            <div className="button-row">
              <button
                type="button"
                className="button small"
                onClick={() =>
                  store.set((state) =>
                    selectionPatch(
                      selectAll({ primary: state.selectedId, ids: state.selectedIds, anchor: state.selectionAnchor }, elsewhere.ids),
                    ),
                  )
                }
              >
                Show it
              </button>
            </div>
          </Callout>
        )}
        <section className="action-section" aria-labelledby="bulk-verify-title">
          <h2 id="bulk-verify-title">
            <Icon name="shield" /> Verify
          </h2>
          <p>
            Hashes every output the state files of these destinations record.{' '}
            {managed < ids.length
              ? `${plural(ids.length - managed, 'of them is', 'of them are')} not managed (no valid state to verify against) and ${ids.length - managed === 1 ? 'is' : 'are'} skipped.`
              : ''}
          </p>
          <div className="button-row">
            <button type="button" className="button" onClick={() => void runVerify()} disabled={verifying || managed === 0}>
              Verify {ids.length.toLocaleString('en-US')}
            </button>
          </div>
          {verified && 'error' in verified && (
            <Callout tone="danger" title="The verify did not run" role="alert">
              <p>{verified.error}</p>
            </Callout>
          )}
          {verified && !('error' in verified) && (
            <p role="status" data-testid="bulk-verified">
              Verified: {verified.intact.toLocaleString('en-US')} intact, {verified.drifted.toLocaleString('en-US')} drifted
              {verified.skipped > 0 ? `; ${plural(verified.skipped, 'not verifiable destination')} skipped` : ''}.
            </p>
          )}
        </section>
        {BULK_MODE_ORDER.map((mode) => (
          <RunSection
            key={mode}
            mode={mode}
            ids={ids}
            run={run?.mode === mode ? run : undefined}
            busy={busy}
            onReview={() => setConfirming(true)}
          />
        ))}
        <BulkTable ids={ids} run={run} />
      </div>
      {confirming && run && planSummary && (
        <BulkReplaceDialog
          mode={run.mode}
          rows={run.rows}
          summary={planSummary}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void applyBulkReplace();
          }}
        />
      )}
    </main>
  );
}
