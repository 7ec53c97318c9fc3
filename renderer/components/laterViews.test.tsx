// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { showWorkspace } from '../state/actions';
import { refreshHosts } from '../state/hostActions';
import { holdSideCalls } from '../state/listPages';
import { refreshLiveRefreshStatus } from '../state/liveRefreshActions';
import { selectOneDestination } from '../state/selectionActions';
import { initialState, store } from '../state/store';
import { installFakeBridge } from '../testing/fakeBridge';
import { workspaceOf } from '../testing/sampleWorkspace';
import { DetailPane, later, RestoreHost } from './laterViews';

const { calls } = installFakeBridge((method) => {
  if (method === 'hosts') return { ok: true, value: { hosts: [] } };
  return undefined;
});
const asked = () => calls.map((call) => call.method);

afterEach(() => {
  cleanup();
  holdSideCalls(Promise.resolve());
  store.set(initialState());
});

describe('the views loaded when first wanted', () => {
  it('says how to see a destination until one is selected, then shows its detail pane', async () => {
    showWorkspace(workspaceOf(3));
    render(<DetailPane />);
    expect(screen.getByRole('heading', { name: 'No destination selected' })).toBeTruthy();
    act(() => selectOneDestination('site-1'));
    // The chunk's first import (transformed on demand here) may take seconds on a loaded machine.
    expect(await screen.findByRole('tab', { name: 'Overview' }, { timeout: 30_000 })).toBeTruthy();
    expect(screen.getByRole('heading', { name: /site-1/ })).toBeTruthy();
  });

  it('holds the pane of a row selected at the start until the first rows are in, then shows it', async () => {
    let firstRowsIn: () => void = () => undefined;
    holdSideCalls(new Promise<void>((resolve) => (firstRowsIn = resolve)));
    showWorkspace(workspaceOf(3));
    act(() => selectOneDestination('site-2'));
    render(<DetailPane />);
    expect(screen.getByRole('status').textContent).toBe('Loading the destination…');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked()).not.toContain('inspectDestination');
    act(() => firstRowsIn());
    expect(await screen.findByRole('tab', { name: 'Overview' }, { timeout: 30_000 })).toBeTruthy();
    expect(asked()).toContain('inspectDestination');
  });

  it('renders no restore dialog, and loads none, until a restore is asked for', () => {
    const { container } = render(<RestoreHost />);
    expect(container.innerHTML).toBe('');
  });
});

describe('a view whose chunk could not be loaded', () => {
  const since = (second: number) => `2026-12-06T13:00:0${second}.000Z`;
  let reachable = false;
  const makeView = () =>
    later(
      async () => {
        if (!reachable) throw new TypeError('Failed to fetch dynamically imported module');
        return { Shown: () => <p>the view</p> };
      },
      (module) => module.Shown,
    );

  it('says so in its place, leaves the rest of the page, and loads once the inspector answers again', async () => {
    reachable = false;
    const View = makeView();
    store.set({ connection: { status: 'connected', since: since(1) } });
    render(
      <>
        <p>the rest of the page</p>
        <View />
      </>,
    );
    expect(await screen.findByTestId('view-load-failed')).toBeTruthy();
    expect(screen.getByText('the rest of the page')).toBeTruthy();
    // Still connected as when it failed: not asked again by itself.
    act(() => store.set({ connection: { status: 'lost', since: since(2) } }));
    expect(screen.getByTestId('view-load-failed')).toBeTruthy();
    reachable = true;
    act(() => store.set({ connection: { status: 'connected', since: since(3) } }));
    expect(await screen.findByText('the view')).toBeTruthy();
  });

  it('loads again on Try again', async () => {
    reachable = false;
    const View = makeView();
    render(<View />);
    const failed = await screen.findByTestId('view-load-failed');
    reachable = true;
    await userEvent.setup().click(failed.querySelector('button')!);
    expect(await screen.findByText('the view')).toBeTruthy();
  });
});

describe('the start holding its side calls', () => {
  it('asks the hosts and the watch status only once the first rows are in', async () => {
    let firstRowsIn: () => void = () => undefined;
    holdSideCalls(new Promise<void>((resolve) => (firstRowsIn = resolve)));
    const hosts = refreshHosts();
    const status = refreshLiveRefreshStatus();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked()).toEqual([]);
    firstRowsIn();
    await Promise.all([hosts, status]);
    expect(asked().sort()).toEqual(['hosts', 'liveRefreshStatus']);
  });
});
