// One running job's progress bar with its numbers and a Cancel button; an apply names its phase
// ("staging 3,400 / 10,000"), in the words the CLI uses (shared/applyStepWords.ts). A job whose link
// to the engine was lost says its outcome is unknown instead (no bar, no Cancel). One Cancel per job
// on screen (state/jobCancelPlace.ts): in place, or in its dialog's footer, else in the status bar;
// "cancelling…" from the click on, and none once the job has done its work.
import { useEffect } from 'react';
import { groupDigits } from '../../shared/issueCap';
import { describeApplyStep } from '../../shared/applyStepWords';
import { cancelJob } from '../state/actions';
import { holdCancelInPlace, useJobsCancelledInPlace } from '../state/jobCancelPlace';
import type { JobView } from '../state/store';
import { formatBytes } from '../view/format';
import { Icon } from './Icon';

/**
 * Where this row's Cancel is: `here` (a section or panel showing the job), `footer` (its dialog's
 * footer holds a JobCancelButton, so none here), `statusbar` (only when no other place shows the job).
 */
export type CancelPlace = 'here' | 'footer' | 'statusbar';

/** The job has nothing left that a cancel could stop. */
function finished(job: JobView): boolean {
  return job.step?.phase === 'done' || job.step?.phase === 'cleanup';
}

/** The one Cancel of a job; says "Cancelling…" from the click on, and is gone once the job is done. */
export function JobCancelButton({ job, label = 'Cancel' }: { job: JobView; label?: string }) {
  if (finished(job)) return null;
  return (
    <button
      type="button"
      className="button small"
      onClick={() => void cancelJob(job.key)}
      disabled={!job.job || job.cancelling === true}
      aria-label={job.cancelling ? `Cancelling ${job.label}` : `Cancel ${job.label}`}
    >
      {job.cancelling ? 'Cancelling…' : label}
    </button>
  );
}

export function JobProgress({ job, compact = false, cancel = 'here' }: { job: JobView; compact?: boolean; cancel?: CancelPlace }) {
  const inPlace = useJobsCancelledInPlace();
  useEffect(() => (cancel === 'statusbar' ? undefined : holdCancelInPlace(job.key)), [cancel, job.key]);
  if (job.outcomeUnknown) {
    // Never a frozen bar with a live Cancel: the engine may have finished, failed or stopped with the host.
    return (
      <div className="progress job outcome-unknown" data-testid={`job-${job.method}`} role="status">
        <Icon name="alert" />
        <span>{job.label}</span>
        <strong>outcome unknown: re-inspect</strong>
        {!compact && <span className="muted">the connection to the inspector was lost while it ran; it is read again on reconnect</span>}
      </div>
    );
  }
  const known = job.total > 0;
  return (
    <div className="progress job" data-testid={`job-${job.method}`}>
      <span>{job.label}</span>
      {job.step && (
        <span className="job-step" data-testid="job-step">
          {describeApplyStep(job.step)}
        </span>
      )}
      <progress max={known ? job.total : undefined} value={known ? job.done : undefined} aria-label={`${job.label} progress`} />
      {!compact && (
        <span className="muted">
          {known ? `${groupDigits(job.done)} / ${groupDigits(job.total)}` : 'starting…'}
          {job.bytes > 0 ? ` · ${formatBytes(job.bytes)}` : ''}
        </span>
      )}
      {compact && known && <span className="muted">{Math.floor((job.done / job.total) * 100)}%</span>}
      {job.cancelling && (
        <strong className="job-cancelling" role="status">
          cancelling…
        </strong>
      )}
      {(cancel === 'here' || (cancel === 'statusbar' && !inPlace.has(job.key))) && !job.cancelling && <JobCancelButton job={job} />}
    </div>
  );
}
