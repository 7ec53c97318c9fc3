// @vitest-environment happy-dom
// Edit host, Remove host and a lost host's countdown (issue 28), over a stand-in for the bridge that
// records every call and answers editHost with the engine's own kind of refusal or a host.
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiResult, HostState } from '../../shared/api';
import { initialState, store } from '../state/store';
import { HostsPanel } from './HostsPanel';
import { installFakeBridge } from '../testing/fakeBridge';

let answer: ApiResult<unknown> = { ok: false, error: { code: 'internal', message: 'unset' } };

const workspace = { path: '/w/distributor-inspector.json', kind: 'file' as const, root: '/w', issues: [] };
const listed = [
  { id: 'web-1:docs', path: '/srv/docs', replacePolicy: 'allow' as const, host: 'web-1' },
  { id: 'web-1:blog', path: '/srv/blog', replacePolicy: 'allow' as const, host: 'web-1' },
];

const failedHost: HostState = {
  name: 'web-1',
  url: 'ssh://deploy@web-1:2202/srv/www',
  state: 'failed',
  failure: { code: 'host_unreachable', message: 'cannot reach deploy@web-1: Connection refused.' },
  destinations: 0,
  since: '2026-12-04T12:00:00Z',
  settings: { agent: '/opt/di/bin/distributor-inspector', jumpHost: 'bastion', connectTimeout: 120 },
};

const { calls } = installFakeBridge((method) => {
  if (method === 'editHost' || method === 'removeHost' || method === 'addHost') return answer;
  return undefined;
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  store.set(initialState());
});

describe('EditHostDialog', () => {
  it("opens with the host's settings split into fields, says the engine's refusal at its field, and saves the port", async () => {
    store.set({ workspace: { ...workspace, destinations: [] }, hosts: [failedHost] });
    render(<HostsPanel />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit host web-1…' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit host web-1' });
    const value = (label: RegExp | string) => (within(dialog).getByLabelText(label) as HTMLInputElement).value;
    expect([value('Name'), value('Host'), value(/^User/), value(/^Port/), value('Path on the host')]).toEqual([
      'web-1',
      'web-1',
      'deploy',
      '2202',
      '/srv/www',
    ]);
    expect([value('Agent command'), value(/^Jump host/), value(/^Identity file/), value(/^Connect timeout/)]).toEqual([
      '/opt/di/bin/distributor-inspector',
      'bastion',
      '',
      '120',
    ]);

    const port = within(dialog).getByLabelText(/^Port/);
    await user.clear(port);
    await user.type(port, '70000');
    answer = {
      ok: false,
      error: {
        code: 'bad_request',
        message: 'editHost: /w/distributor-inspector.json: port: the port "70000" is not a number from 1 to 65535',
        details: {
          issues: [
            { path: ['port'], code: 'invalid_port', message: 'the port "70000" is not a number from 1 to 65535', severity: 'error' },
          ],
        },
      },
    };
    await user.click(within(dialog).getByRole('button', { name: 'Save and connect' }));
    expect(port.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('edit-host-port-error')?.textContent).toBe('the port "70000" is not a number from 1 to 65535');

    await user.clear(port);
    await user.type(port, '2222');
    const connecting: HostState = { ...failedHost, url: 'ssh://deploy@web-1:2222/srv/www', state: 'connecting' };
    delete connecting.failure;
    answer = { ok: true, value: { workspace: { ...workspace, destinations: [] }, host: connecting } };
    await user.click(within(dialog).getByRole('button', { name: 'Save and connect' }));
    expect(calls.at(-1)).toEqual({
      method: 'editHost',
      request: {
        name: 'web-1',
        settings: {
          name: 'web-1',
          host: 'web-1',
          user: 'deploy',
          port: '2222',
          path: '/srv/www',
          agent: '/opt/di/bin/distributor-inspector',
          identityFile: '',
          jumpHost: 'bastion',
          sshConfig: '',
          connectTimeout: '120',
        },
      },
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('host-state-web-1').textContent).toBe('connecting…');
  });
});

describe('AddHostDialog', () => {
  it("sends the host's ssh settings that are filled in, and opens them to show a refused one", async () => {
    store.set({ workspace: { ...workspace, destinations: [] }, hosts: [] });
    render(<HostsPanel />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add host…' }));
    const dialog = screen.getByRole('dialog', { name: 'Add host' });
    await user.type(within(dialog).getByLabelText('Name'), 'edge');
    await user.type(within(dialog).getByLabelText('SSH target'), 'ops@edge-1');
    await user.type(within(dialog).getByLabelText('Path on the host'), '/srv/www');
    await user.click(within(dialog).getByText('ssh settings of this host (optional)'));
    await user.type(within(dialog).getByLabelText('Jump host'), '-oProxyCommand=x');
    await user.type(within(dialog).getByLabelText('Connect timeout, seconds'), '90');
    answer = {
      ok: false,
      error: {
        code: 'bad_request',
        message: 'addHost: /w/distributor-inspector.json: jumpHost: …',
        details: {
          issues: [
            { path: ['jumpHost'], code: 'invalid_host_setting', message: 'the jump host "-oProxyCommand=x" is wrong', severity: 'error' },
          ],
        },
      },
    };
    await user.click(within(dialog).getByRole('button', { name: 'Add and connect' }));
    expect(calls.at(-1)).toEqual({
      method: 'addHost',
      request: { name: 'edge', target: 'ops@edge-1', path: '/srv/www', jumpHost: '-oProxyCommand=x', connectTimeout: '90' },
    });
    expect(dialog.querySelector('details')?.open).toBe(true);
    expect(document.getElementById('add-host-jumpHost-error')?.textContent).toBe('the jump host "-oProxyCommand=x" is wrong');
  });
});

describe('RemoveHostDialog', () => {
  it('names how many destinations leave the list, Cancel first, and takes the host and its rows away once confirmed', async () => {
    store.set({ workspace: { ...workspace, destinations: listed }, hosts: [{ ...failedHost, state: 'connected', destinations: 2 }] });
    render(<HostsPanel />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Remove host web-1…' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove host web-1?' });
    expect(dialog.textContent).toContain('its 2 destinations leave the list');
    expect(dialog.textContent).toContain('Nothing on the host is changed');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    answer = { ok: true, value: { workspace: { ...workspace, destinations: [] } } };
    await user.click(within(dialog).getByRole('button', { name: 'Remove web-1' }));
    expect(calls.at(-1)).toEqual({ method: 'removeHost', request: { name: 'web-1' } });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(store.get().hosts).toEqual([]);
    expect(store.get().workspace?.destinations).toEqual([]);
  });
});

describe('a lost host', () => {
  it('says when it last connected and counts down to its next try, second by second', () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-04T12:00:10Z') });
    const lost: HostState = {
      ...failedHost,
      state: 'lost',
      failure: { code: 'connection_lost', message: 'the connection to web-1 was lost.' },
      lastConnected: '2026-12-04T11:59:00Z',
      retryAt: '2026-12-04T12:00:14Z',
      retries: 2,
    };
    store.set({ workspace: { ...workspace, destinations: listed }, hosts: [lost] });
    render(<HostsPanel />);
    const retry = screen.getByTestId('host-retry-web-1');
    expect(retry.textContent).toMatch(/^last connected .*2026.* · reconnecting in 4 s$/);
    expect(retry.querySelector('time')?.getAttribute('datetime')).toBe('2026-12-04T11:59:00Z');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByTestId('host-countdown').textContent).toBe('reconnecting in 3 s');
    act(() => vi.advanceTimersByTime(3000));
    expect(screen.getByTestId('host-countdown').textContent).toBe('reconnecting…');
    expect(screen.getByRole('button', { name: 'Reconnect web-1 now' })).toBeTruthy();
  });
});
