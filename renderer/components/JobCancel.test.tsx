// @vitest-environment happy-dom
// Issue 28 point 8: one Cancel per job on screen, "cancelling…" from the click on, none once done.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initialState, store, type JobView } from '../state/store';
import { installFakeBridge } from '../testing/fakeBridge';
import { JobCancelButton, JobProgress } from './JobProgress';

const cancelled: unknown[] = [];
let answerCancel: () => { ok: true; value: object } | { ok: false; error: { code: string; message: string } } = () => ({
  ok: true,
  value: {},
});
installFakeBridge((method, request) => {
  if (method !== 'cancelJob') return undefined;
  cancelled.push(request);
  return answerCancel() as never;
});

const job: JobView = {
  key: 'job-7',
  job: 'engine-7',
  method: 'applyPlan',
  label: 'Force replace legacy-site',
  done: 120,
  total: 6_004,
  bytes: 0,
  step: { phase: 'stage', done: 120, total: 6_000 },
};

const current = () => store.get().jobs.find((candidate) => candidate.key === job.key)!;

beforeEach(() => {
  cancelled.length = 0;
  answerCancel = () => ({ ok: true, value: {} });
  store.set({ ...initialState(), jobs: [job] });
});
afterEach(cleanup);

const cancelButtons = () => screen.queryAllByRole('button', { name: /^Cancel/ });

describe('where the one Cancel of a job is', () => {
  it('is in the status bar when no other place shows the job', () => {
    render(<JobProgress job={job} compact cancel="statusbar" />);
    expect(cancelButtons()).toHaveLength(1);
  });

  it('is in place, not in the status bar, while a section shows the job', () => {
    render(
      <>
        <JobProgress job={job} />
        <footer aria-label="Status">
          <JobProgress job={job} compact cancel="statusbar" />
        </footer>
      </>,
    );
    expect(cancelButtons()).toHaveLength(1);
    expect(screen.getByRole('contentinfo', { name: 'Status' }).querySelector('button')).toBeNull();
  });

  it("is the dialog footer's while a dialog shows the job, and comes back to the status bar when it closes", () => {
    const { rerender } = render(
      <>
        <JobProgress job={job} cancel="footer" />
        <JobCancelButton job={job} />
        <JobProgress job={job} compact cancel="statusbar" />
      </>,
    );
    expect(cancelButtons()).toHaveLength(1);
    rerender(<JobProgress job={job} compact cancel="statusbar" />);
    expect(cancelButtons()).toHaveLength(1);
  });

  it('is gone once the job has done its work', () => {
    const done: JobView = { ...job, done: 6_004, step: { phase: 'done', done: 1, total: 1 } };
    render(
      <>
        <JobProgress job={done} compact cancel="statusbar" />
        <JobCancelButton job={done} />
      </>,
    );
    expect(cancelButtons()).toHaveLength(0);
  });
});

describe('cancelling', () => {
  it('says "cancelling…" at once when clicked, before the engine answers', async () => {
    const { rerender } = render(<JobCancelButton job={current()} />);
    fireEvent.click(screen.getByRole('button', { name: /^Cancel Force/ }));
    expect(current().cancelling).toBe(true);
    rerender(
      <>
        <JobProgress job={current()} cancel="footer" />
        <JobCancelButton job={current()} />
      </>,
    );
    expect(screen.getByText('cancelling…')).toBeTruthy();
    const button = screen.getByRole('button', { name: /^Cancelling/ });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.textContent).toBe('Cancelling…');
    await act(async () => {
      await Promise.resolve();
    });
    expect(cancelled).toEqual([{ job: 'engine-7' }]);
  });

  it('offers Cancel again when the engine refuses it', async () => {
    answerCancel = () => ({ ok: false, error: { code: 'not_found', message: 'no such job' } });
    render(<JobCancelButton job={current()} />);
    fireEvent.click(screen.getByRole('button', { name: /^Cancel Force/ }));
    await act(async () => {
      await Promise.resolve();
    });
    expect(current().cancelling).toBe(false);
    expect(store.get().lastError?.title).toBe('Cancel failed');
  });
});
