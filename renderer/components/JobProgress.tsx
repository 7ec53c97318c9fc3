// One running job's progress bar with its numbers and a Cancel button; an apply names its phase
// ("staging 3,400 / 10,000"), in the words the CLI uses (shared/applyStepWords.ts). A job whose link
// to the engine was lost says its outcome is unknown instead (no bar, no Cancel).
import { describeApplyStep } from '../../shared/applyStepWords';
import { cancelJob } from '../state/actions';
import type { JobView } from '../state/store';
import { formatBytes } from '../view/format';
import { Icon } from './Icon';

export function JobProgress({ job, compact = false }: { job: JobView; compact?: boolean }) {
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
          {known ? `${job.done.toLocaleString('en-US')} / ${job.total.toLocaleString('en-US')}` : 'starting…'}
          {job.bytes > 0 ? ` · ${formatBytes(job.bytes)}` : ''}
        </span>
      )}
      {compact && known && <span className="muted">{Math.floor((job.done / job.total) * 100)}%</span>}
      <button
        type="button"
        className="button small"
        onClick={() => void cancelJob(job.key)}
        disabled={!job.job}
        aria-label={`Cancel ${job.label}`}
      >
        Cancel
      </button>
    </div>
  );
}
