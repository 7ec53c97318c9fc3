// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { initialState, store } from '../state/store';
import { ConnectionBanner } from './ConnectionBanner';

afterEach(() => {
  cleanup();
  store.set(initialState());
});

const since = '2026-12-03T17:00:00Z';
const job = { key: 'j', job: 'x', method: 'applyPlan' as const, label: 'Replace docs-us', done: 1, total: 4, bytes: 0 };

describe('ConnectionBanner', () => {
  it('shows nothing while the link is up', () => {
    store.set({ connection: { status: 'connected', since } });
    const { container } = render(<ConnectionBanner />);
    expect(container.textContent).toBe('');
  });

  it('says the connection is lost, what became of running jobs, what to do, and offers Reconnect', () => {
    store.set({ connection: { status: 'lost', since }, jobs: [{ ...job, outcomeUnknown: true }] });
    render(<ConnectionBanner />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Connection to the inspector lost');
    expect(screen.getByTestId('connection-lost').textContent).toContain('marked “outcome unknown: re-inspect”');
    expect(screen.getByTestId('connection-lost').textContent).toContain('--token-file');
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeTruthy();
  });

  it('tells a tab whose token a restarted host no longer takes to open the new address', () => {
    store.set({ connection: { status: 'refused', since } });
    render(<ConnectionBanner />);
    expect(screen.getByTestId('connection-refused').textContent).toContain('not to this tab’s token');
  });

  it('says when the workspace is being read again after a reconnect, then that it was', () => {
    store.set({ connection: { status: 'connected', since }, reconnected: { at: since, sameHost: false, reinspecting: true } });
    render(<ConnectionBanner />);
    expect(screen.getByTestId('connection-back').textContent).toContain('A restarted inspector answered');
    expect(screen.getByTestId('connection-back').textContent).toContain('reading the workspace again');
  });
});
