// openRemoteDestination (remoteSession.ts) against a stand-in agent connection: a reply the schema
// accepts but that lists no destination, or more than the one asked for, is a clear agent_protocol
// error naming the host and the field, never "Cannot read properties of undefined".

import { describe, expect, it } from 'vitest';
import type { AgentConnection } from '../remote/agentConnection';
import { parseSshUrl, type SshTarget } from '../../shared/sshUrl';
import { CliError, EXIT_INPUT } from './command';
import { openRemoteDestination } from './remoteSession';

function target(url: string): SshTarget {
  const parsed = parseSshUrl(url);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

/** A connection whose openWorkspace answers with these destinations. */
function answering(destinations: { id: string; path: string }[]): AgentConnection {
  return { call: async () => ({ ok: true, value: { destinations } }) } as unknown as AgentConnection;
}

const DEST = target('ssh://ops@web-1:2222/srv/www/docs');

describe('opening a destination on an agent', () => {
  it('names the host and the field when the agent lists no destination', async () => {
    const opened = openRemoteDestination(answering([]), DEST, undefined);
    await expect(opened).rejects.toBeInstanceOf(CliError);
    await expect(opened).rejects.toMatchObject({
      exitCode: EXIT_INPUT,
      message: expect.stringMatching(
        /^ops@web-1:2222: the agent's reply to openWorkspace is malformed: destinations lists 0, .*\(agent_protocol\)$/,
      ),
    });
  });

  it('refuses a reply that lists more than the one destination asked for', async () => {
    const two = [
      { id: 'docs', path: '/srv/www/docs' },
      { id: 'other', path: '/etc' },
    ];
    await expect(openRemoteDestination(answering(two), DEST, undefined)).rejects.toThrow(
      /destinations lists 2, not the one destination \/srv\/www\/docs/,
    );
  });

  it('opens the one destination the agent lists', async () => {
    const opened = await openRemoteDestination(answering([{ id: 'docs', path: '/srv/www/docs' }]), DEST, undefined);
    expect(opened).toMatchObject({ id: 'docs', host: 'ops@web-1:2222' });
  });
});
