// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobView } from '../state/store';
import { JobProgress } from './JobProgress';

afterEach(cleanup);

const apply = (step?: JobView['step']): JobView => ({
  key: 'job-1',
  job: 'job-x-1',
  method: 'applyPlan',
  label: 'Replace docs-us',
  done: 3_400,
  total: 20_003,
  bytes: 0,
  ...(step ? { step } : {}),
});

describe('a running job', () => {
  it.each([
    [{ phase: 'verify', done: 120, total: 10_000 }, 'checking the source 120 / 10,000'],
    [{ phase: 'stage', done: 3_400, total: 10_000 }, 'staging 3,400 / 10,000'],
    [{ phase: 'move', done: 10, total: 10_000 }, 'moving into place 10 / 10,000'],
    [{ phase: 'write_state', done: 0, total: 1 }, 'writing the state'],
  ] as const)('names the phase of an apply: %o', (step, words) => {
    render(<JobProgress job={apply(step)} />);
    expect(screen.getByTestId('job-step').textContent).toBe(words);
    cleanup();
    render(<JobProgress job={apply(step)} compact />);
    expect(screen.getByTestId('job-step').textContent).toBe(words);
  });

  it('shows no phase for a job that has none (a scan, a verify)', () => {
    render(<JobProgress job={{ ...apply(), method: 'verify', label: 'Verify all' }} />);
    expect(screen.queryByTestId('job-step')).toBeNull();
  });
});

describe('a job whose connection was lost', () => {
  it('says its outcome is unknown instead of a frozen bar with a percent and Cancel', () => {
    render(<JobProgress job={{ ...apply({ phase: 'stage', done: 3_400, total: 10_000 }), outcomeUnknown: true }} compact />);
    expect(screen.getByTestId('job-applyPlan').textContent).toContain('outcome unknown: re-inspect');
    expect(screen.getByTestId('job-applyPlan').textContent).not.toContain('%');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByRole('button', { name: /Cancel/ })).toBeNull();
  });
});
