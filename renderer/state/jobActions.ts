// Jobs the user started, each with a row in the status bar (progress, Cancel), and the last error the
// status bar shows. Thin: runs the job through the API client and writes its row into the store.

import type { ApiError, JobItemOf, JobMethod, RequestOf } from '../../shared/api';
import { getClient } from '../api/client';
import { runJob, type JobOutcome } from '../api/jobs';
import { store, type JobView } from './store';

let nextKey = 1;

export function reportError(title: string, error: ApiError): void {
  store.set({ lastError: { title, error, at: new Date().toISOString() } });
}

export function dismissError(): void {
  store.set({ lastError: undefined });
}

function updateJob(key: string, patch: Partial<JobView>): void {
  store.set((state) => ({ jobs: state.jobs.map((job) => (job.key === key ? { ...job, ...patch } : job)) }));
}

/**
 * Runs a job with a row in the status bar (progress, Cancel); a failure other than cancel becomes the last error.
 * `shownOnlyIf`: a job asked for before the page knows it applies (the start's scan, asked beside
 * appInfo): its row and its error show only once that resolves true; on false it is cancelled, unseen.
 */
export async function trackedJob<M extends JobMethod>(
  method: M,
  request: RequestOf<M>,
  label: string,
  options: {
    destination?: string;
    onItem?: (item: JobItemOf<M>) => void;
    onProgress?: (view: JobView) => void;
    shownOnlyIf?: Promise<boolean>;
  } = {},
): Promise<JobOutcome<M>> {
  const key = `job-${nextKey++}`;
  // The row as it stands, kept here too: a row not shown yet is added as it is by then.
  let view: JobView = {
    key,
    method,
    label,
    done: 0,
    total: 0,
    bytes: 0,
    ...(options.destination ? { destination: options.destination } : {}),
  };
  const update = (patch: Partial<JobView>) => {
    view = { ...view, ...patch };
    updateJob(key, patch);
  };
  let ended = false;
  let unwanted = false;
  const show = () => store.set((state) => ({ jobs: [...state.jobs, view], notice: undefined }));
  const cancelUnseen = () => {
    if (view.job !== undefined && !ended) void getClient().invoke('cancelJob', { job: view.job });
  };
  if (options.shownOnlyIf)
    void options.shownOnlyIf.then((applies) => {
      unwanted = !applies;
      if (unwanted) cancelUnseen();
      else if (!ended) show();
    });
  else show();
  const outcome = await runJob(getClient(), method, request, {
    onStart: (job) => {
      update({ job });
      if (unwanted) cancelUnseen();
    },
    onProgress: (progress) => {
      update({
        done: progress.done,
        total: progress.total,
        bytes: progress.bytes,
        ...(progress.step ? { step: progress.step } : {}),
      });
      const current = store.get().jobs.find((job) => job.key === key);
      if (current) options.onProgress?.(current);
    },
    ...(options.onItem ? { onItem: options.onItem } : {}),
  });
  ended = true;
  if (options.shownOnlyIf && !(await options.shownOnlyIf)) return outcome;
  // A job whose link was lost stays in view, marked: it may have finished, failed or still run.
  if (!outcome.ok && outcome.error.code === 'connection_lost') {
    if (!store.get().jobs.some((job) => job.key === key)) show();
    updateJob(key, { outcomeUnknown: true });
  } else store.set((state) => ({ jobs: state.jobs.filter((job) => job.key !== key) }));
  if (!outcome.ok && outcome.error.code !== 'cancelled' && outcome.error.code !== 'connection_lost')
    reportError(`${label} failed`, outcome.error);
  return outcome;
}

export async function cancelJob(key: string): Promise<void> {
  const job = store.get().jobs.find((candidate) => candidate.key === key)?.job;
  if (!job) return;
  // Said at once: the engine stops at its next safe point, which can be seconds away.
  updateJob(key, { cancelling: true });
  const answer = await getClient().invoke('cancelJob', { job });
  if (!answer.ok) {
    updateJob(key, { cancelling: false });
    reportError('Cancel failed', answer.error);
  }
}
