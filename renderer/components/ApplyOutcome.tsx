// What an apply did, as the engine's ApplyResult says: done, or refused or failed with the three facts
// an operator needs next (was anything changed, is a new state in place, is a staging folder left),
// and a stale plan as its own case with the way on. Shown in the Actions tab and in the force dialog.

import { planKindOf } from '../../shared/planKinds';
import type { ApiError } from '../../shared/api';
import { applyAftermathText, type ApplyResult } from '../../shared/plan';
import { plural } from '../view/format';
import { countsWords } from '../../shared/planCounts';
import { openRestore } from '../state/actions';
import { useAppState } from '../state/store';
import { restoreRefusalWords } from '../view/backupView';
import { Callout } from './Callout';
import { Icon } from './Icon';

export type ApplyOutcome = { kind: 'result'; result: ApplyResult } | { kind: 'error'; error: ApiError };

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

function ResultFacts({ result }: { result: ApplyResult }) {
  return (
    <dl className="facts" data-testid="apply-facts">
      <dt>Anything changed on disk</dt>
      <dd>
        {yesNo(result.changed)}
        {result.changed && !result.stateWritten ? ` (deleted ${result.deleted.length}, moved ${result.written.length} into place)` : ''}
      </dd>
      <dt>New state written</dt>
      <dd>{result.stateWritten ? 'yes: the destination describes the new publication' : 'no'}</dd>
      <dt>Staging folder left</dt>
      <dd>{result.stagingLeft ? 'yes: it shows as an interrupted replace; Discard staging removes it' : 'no'}</dd>
      <dt>Old state and outputs</dt>
      <dd>{result.oldTouched ? 'partly removed or moved' : 'untouched'}</dd>
    </dl>
  );
}

/** A replace whose link was lost while it ran: unknown until the workspace is read again, then pointed at what the disk says. */
function OutcomeUnknown() {
  const reconnected = useAppState((state) => state.reconnected);
  if (reconnected && !reconnected.reinspecting) {
    return (
      <Callout tone="warning" title="The connection was lost while this replace ran" role="status">
        <p data-testid="apply-outcome-unknown">
          The destination was read again when the inspector answered: its status above is what the disk holds now. Plan again if it still
          needs a replace.
        </p>
      </Callout>
    );
  }
  return (
    <Callout tone="danger" title="Replace: outcome unknown: re-inspect" role="alert">
      <p data-testid="apply-outcome-unknown">
        The connection to the inspector was lost while the replace ran: it may have finished, failed or stopped half-way with the host. The
        workspace is read again when the inspector answers; until then, nothing on this page says what the destination holds now.
      </p>
    </Callout>
  );
}

/** The apply stands; only its record in the history journal is missing, and the operator should know. */
function HistoryWarning({ result }: { result: ApplyResult }) {
  if (!result.historyError) return null;
  return (
    <Callout tone="warning" title="Not recorded in the history" role="alert">
      <p>{result.historyError.message}</p>
    </Callout>
  );
}

/** What the action is called in the outcome's words: "The repair did not run". */
export type ApplyNoun = 'replace' | 'repair' | 'discard' | 'restore' | 'adopt';

/** "Backup <id> kept in <folder> — Undo": where the apply kept what it removed, and the way back (the restore dialog). */
function BackupKept({ result, destination, onUndo }: { result: ApplyResult; destination?: string; onUndo?: () => void }) {
  const backup = result.backup;
  // A restore's backup is the one it put back, not one it kept.
  if (!backup || planKindOf(result.mode).putsBackBackup) return null;
  return (
    <div className="backup-kept" data-testid="backup-kept">
      <p>
        <Icon name="package" /> Backup <code>{backup.id}</code> kept in <code>{backup.folder}</code>
        {backup.method === 'copy' ? ' (copied and verified)' : ''}
        {destination !== undefined && (
          <>
            {' — '}
            <button
              type="button"
              className="button small"
              onClick={() => {
                onUndo?.();
                openRestore(destination, backup.id);
              }}
            >
              Undo
            </button>
          </>
        )}
      </p>
      {backup.warning && <p className="muted">{backup.warning}</p>}
    </div>
  );
}

export function ApplyOutcomeView(props: {
  outcome: ApplyOutcome;
  onPlanAgain: () => void;
  noun?: ApplyNoun;
  /** The destination's id: with it, a kept backup offers Undo (the restore dialog). */
  destination?: string;
  /** Called as Undo opens the restore (a dialog showing this result closes itself). */
  onUndo?: () => void;
}) {
  return (
    <>
      <ApplyOutcomeCallout {...props} />
      {props.outcome.kind !== 'error' && (
        <BackupKept
          result={props.outcome.result}
          {...(props.destination !== undefined ? { destination: props.destination } : {})}
          {...(props.onUndo ? { onUndo: props.onUndo } : {})}
        />
      )}
      {props.outcome.kind !== 'error' && <HistoryWarning result={props.outcome.result} />}
    </>
  );
}

/**
 * "Created 1 file, updated 2 files (the state file among them), deleted 2 files": what a completed
 * apply did, in the counts its confirmation named (shared/planCounts.ts); a result from an older peer
 * without them says how many paths it removed and wrote.
 */
function doneWords(result: ApplyResult): string {
  if (result.counts) {
    const words = countsWords(result.counts, 'done');
    return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
  }
  return `Removed ${plural(result.deleted.length, 'path')} and wrote ${plural(result.written.length, 'path')}`;
}

/** A completed apply of any kind: its kind's title in the past, what it did, and how it was checked. */
function Done({ result }: { result: ApplyResult }) {
  const facts = planKindOf(result.mode);
  const staging = facts.onlyStaging ? ` (${result.deleted.join(', ')})` : '';
  return (
    <Callout tone="good" title={facts.doneTitle} role="status">
      <p data-testid="apply-done-counts">
        {doneWords(result)}
        {staging} in {Math.round(result.durationMs)} ms. {facts.doneNote} The destination was read again and verified.
      </p>
      {facts.putsBackBackup && result.backup?.warning && <p className="muted">{result.backup.warning}</p>}
    </Callout>
  );
}

/** An adopt that completed: the state file written, nothing else touched. */
function AdoptDone({ result }: { result: ApplyResult }) {
  return (
    <Callout tone="good" title="Adopted" role="status">
      <p>
        Wrote <code>.distributor.json</code> recording {plural(result.state?.outputs.length ?? 0, 'file')} as they stand, in{' '}
        {Math.round(result.durationMs)} ms; no other byte was written, moved or deleted. The destination was read again and verified.
      </p>
    </Callout>
  );
}

function ApplyOutcomeCallout({
  outcome,
  onPlanAgain,
  noun = 'replace',
}: {
  outcome: ApplyOutcome;
  onPlanAgain: () => void;
  noun?: ApplyNoun;
}) {
  if (outcome.kind === 'error' && outcome.error.code === 'connection_lost') return <OutcomeUnknown />;
  if (outcome.kind === 'error') {
    return (
      <Callout tone="danger" title={`The ${noun} did not run`} role="alert">
        <p>{outcome.error.message}</p>
      </Callout>
    );
  }
  const { result } = outcome;
  if (result.ok && planKindOf(result.mode).writesOnlyState) return <AdoptDone result={result} />;
  if (result.ok) return <Done result={result} />;
  const stale = result.error?.code === 'stale_plan';
  return (
    <Callout
      tone={stale ? 'warning' : 'danger'}
      title={stale ? 'The destination changed since this plan: plan again' : `The ${noun} did not complete`}
      role="alert"
    >
      <p>
        {stale
          ? 'Something on disk differs from what the plan was made from, so the plan was refused.'
          : (result.error?.message ?? 'The engine gave no reason.')}
      </p>
      {!stale && result.error && restoreRefusalWords(result.error) && <p>{restoreRefusalWords(result.error)?.next}</p>}
      {!stale && <p data-testid="apply-aftermath">{applyAftermathText(result)}</p>}
      <ResultFacts result={result} />
      {stale && (
        <div className="button-row">
          <button type="button" className="button" onClick={onPlanAgain}>
            Plan again
          </button>
        </div>
      )}
    </Callout>
  );
}
