// @vitest-environment happy-dom
// The hosts above the list and the Add host dialog, over a stand-in for the bridge that records every
// call and answers addHost with the engine's own kind of refusal (each bad field named) or a host.
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiResult, HostState } from '../../shared/api';
import { installFakeBridge } from '../testing/fakeBridge';
import { samplePlan } from '../testing/samplePlan';
import { initialState, store } from '../state/store';
import { ForceReplaceDialog } from './ForceReplaceDialog';
import { HostsPanel } from './HostsPanel';

let addAnswer: ApiResult<unknown> = { ok: false, error: { code: 'internal', message: 'unset' } };

const host = (name: string, state: HostState['state'], failure?: HostState['failure']): HostState => ({
  name,
  url: `ssh://${name}/srv/www`,
  state,
  destinations: state === 'connected' ? 12 : 0,
  since: '2026-12-04T12:00:00Z',
  ...(failure ? { failure } : {}),
});

const workspace = {
  path: '/w/distributor-inspector.json',
  kind: 'file' as const,
  root: '/w',
  destinations: [],
  issues: [],
};

const { calls } = installFakeBridge((method, request) => {
  if (method === 'addHost') return addAnswer;
  if (method === 'reconnectHost') return { ok: true, value: host((request as { name: string }).name, 'connecting') };
  if (method === 'hosts') return { ok: true, value: { hosts: store.get().hosts } };
  return undefined;
});

afterEach(() => {
  cleanup();
  store.set(initialState());
});

function show(hosts: HostState[]) {
  store.set({ workspace, hosts });
  render(<HostsPanel />);
}

describe('HostsPanel', () => {
  it("says each host's state in words, why one failed or was lost, and reconnects only those", async () => {
    show([
      host('web-1', 'connected'),
      host('web-2', 'lost', { code: 'connection_lost', message: 'the connection to web-2 was lost while verify ran' }),
      host('db', 'failed', { code: 'auth_failed', message: 'authentication to db failed: load your key (ssh-add)' }),
      host('slow', 'connecting'),
    ]);
    expect(screen.getByTestId('host-state-web-1').textContent).toBe('connected');
    expect(screen.getByText('12 destinations')).toBeTruthy();
    expect(screen.getByTestId('host-state-web-2').textContent).toBe('connection lost');
    expect(screen.getByRole('alert').textContent).toContain('connection_lost the connection to web-2 was lost');
    expect(screen.getByText(/load your key \(ssh-add\)/)).toBeTruthy();
    expect(screen.getByTestId('host-state-slow').textContent).toBe('connecting…');
    const reconnects = screen.getAllByRole('button', { name: /^Reconnect/ }).map((button) => button.textContent?.trim());
    // A lost host's button tries it now (it is also tried by itself); a failed one's, again.
    expect(reconnects).toEqual(['Reconnect now', 'Reconnect db']);
    expect(screen.getByRole('button', { name: 'Reconnect web-2 now' })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reconnect db' }));
    expect(calls).toContainEqual({ method: 'reconnectHost', request: { name: 'db' } });
    expect(screen.getByTestId('host-state-db').textContent).toBe('connecting…');
  });

  it('filters the list to one machine, this one, or every one', async () => {
    show([host('web-1', 'connected'), host('web-2', 'connected')]);
    const user = userEvent.setup();
    const select = screen.getByLabelText(/Show/);
    await user.selectOptions(select, 'web-2');
    expect(store.get().filter.host).toBe('web-2');
    await user.selectOptions(select, 'this machine');
    expect(store.get().filter.host).toBe('');
    await user.selectOptions(select, 'every machine');
    expect(store.get().filter.host).toBeUndefined();
  });

  it('shows nothing for a folder workspace without hosts (there is no file to add one to)', () => {
    store.set({ workspace: { ...workspace, kind: 'folder' }, hosts: [] });
    const { container } = render(<HostsPanel />);
    expect(container.textContent).toBe('');
  });
});

describe('AddHostDialog', () => {
  it('puts each field the engine refused beside that field, saves nothing, and closes once the host is saved', async () => {
    show([]);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add host…' }));
    const dialog = screen.getByRole('dialog', { name: 'Add host' });
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'web 1');
    await user.type(within(dialog).getByLabelText('SSH target'), '-oProxyCommand=x');
    await user.type(within(dialog).getByLabelText('Path on the host'), 'srv/www');
    addAnswer = {
      ok: false,
      error: {
        code: 'bad_request',
        message: 'addHost: name: host name "web 1" must be 1 to 63 letters…',
        details: {
          issues: [
            { path: ['name'], code: 'invalid_host_name', message: 'host name "web 1" must be 1 to 63 letters, digits…', severity: 'error' },
            {
              path: ['target'],
              code: 'invalid_ssh_target',
              message: 'ssh target "-oProxyCommand=x": the host must not start with -',
              severity: 'error',
            },
            { path: ['path'], code: 'invalid_path', message: 'the path on the host must be absolute (start with /)', severity: 'error' },
          ],
        },
      },
    };
    await user.click(within(dialog).getByRole('button', { name: 'Add and connect' }));
    expect(calls.at(-1)).toEqual({ method: 'addHost', request: { name: 'web 1', target: '-oProxyCommand=x', path: 'srv/www' } });
    const name = within(dialog).getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('add-host-name-error')?.textContent).toMatch(/must be 1 to 63 letters/);
    expect(name.getAttribute('aria-describedby')).toContain('add-host-name-error');
    expect(document.getElementById('add-host-target-error')?.textContent).toMatch(/must not start with -/);
    expect(document.getElementById('add-host-path-error')?.textContent).toMatch(/must be absolute/);
    expect(
      within(dialog)
        .getByLabelText(/Agent command/)
        .getAttribute('aria-invalid'),
    ).toBe('false');

    await user.clear(name);
    await user.type(name, 'web-1');
    addAnswer = {
      ok: true,
      value: { workspace: { ...workspace, hosts: [{ name: 'web-1', url: 'ssh://web-1/srv/www' }] }, host: host('web-1', 'connecting') },
    };
    await user.click(within(dialog).getByRole('button', { name: 'Add and connect' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(store.get().hosts.map((entry) => entry.name)).toEqual(['web-1']);
  });
});

describe('ForceReplaceDialog on a host', () => {
  it('names the host in its title and in what it deletes', () => {
    const plan = samplePlan({ mode: 'force', decision: 'unmanaged' });
    render(
      <ForceReplaceDialog
        plan={plan}
        confirmText="web-1:legacy-site"
        host="web-1 (ssh://web-1/srv/www)"
        onCancel={vi.fn()}
        onConfirm={vi.fn()}
      />,
    );
    expect(screen.getByRole('alertdialog', { name: 'Force replace web-1:legacy-site on host web-1?' })).toBeTruthy();
    expect(screen.getByTestId('force-host').textContent).toBe('on host web-1 (ssh://web-1/srv/www)');
  });
});
