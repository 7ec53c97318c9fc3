// An ssh:// path through the one door (hostDoor.ts): the CLI's Session opens it as a workspace of one
// host and names its destination `NAME:ID`; here the host's link is a stand-in whose openWorkspace
// answers as told. A reply the schema accepts but that lists no destination, or more than the one
// asked for, is a clear agent_protocol error naming the host, never "Cannot read properties of undefined".

import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../shared/api';
import { parseSshUrl, type SshTarget } from '../../shared/sshUrl';
import type { HostConnector, HostLink } from '../service/hostLink';
import { CliError, EXIT_INPUT } from './command';
import { withLocalDoor } from './door';
import { openHostDestination } from './hostDoor';

function target(url: string): SshTarget {
  const parsed = parseSshUrl(url);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

/** A host whose agent's openWorkspace answers with these destinations (or this error); what it was asked is kept. */
function answering(answer: ApiResult<{ destinations: { id: string; path: string }[] }>, asked: unknown[] = []): HostConnector {
  return async () =>
    ({
      hello: { version: 'test', host: 'web-1', platform: 'linux' },
      lost: undefined,
      ended: new Promise(() => {}),
      call: async (method: string, request: unknown) => {
        asked.push({ method, request });
        if (!answer.ok) return answer;
        const destinations = answer.value.destinations.map((d) => ({ ...d, replacePolicy: 'allow' }));
        return {
          ok: true,
          value: { path: '/srv/www/docs', kind: 'folder', root: '/srv/www/docs', destinations, issues: [], listReadAt: '' },
        };
      },
      job: async () => ({ ok: false, error: { code: 'internal', message: 'no job here' } }),
      close: async () => {},
    }) as unknown as HostLink;
}

const DEST = target('ssh://ops@web-1:2222/srv/www/docs');
const places = { storage: { env: {} }, undoOptions: [] };
const open = (connector: HostConnector) =>
  withLocalDoor(places, (door) => openHostDestination(door, DEST, undefined), { connectHost: connector });

describe('opening a destination on a host through the Session', () => {
  it('names the host and the field when the agent lists no destination', async () => {
    const opened = open(answering({ ok: true, value: { destinations: [] } }));
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
    await expect(open(answering({ ok: true, value: { destinations: two } }))).rejects.toThrow(
      /destinations lists 2, not the one destination \/srv\/www\/docs/,
    );
  });

  it('opens the one destination the agent lists, as one destination there, named NAME:ID as the app names it', async () => {
    const asked: unknown[] = [];
    const opened = await open(answering({ ok: true, value: { destinations: [{ id: 'docs', path: '/srv/www/docs' }] } }, asked));
    expect(opened).toMatchObject({ id: 'web-1:docs', host: 'ops@web-1:2222', undoDestination: 'ssh://ops@web-1:2222/srv/www/docs' });
    expect(asked).toEqual([{ method: 'openWorkspace', request: { path: '/srv/www/docs', asDestination: true } }]);
  });

  it("says the host's own refusal with the host's name in front, as the app shows it", async () => {
    const refused = open(answering({ ok: false, error: { code: 'invalid_workspace', message: 'no such folder' } }));
    await expect(refused).rejects.toMatchObject({
      exitCode: EXIT_INPUT,
      message: 'web-1: /srv/www/docs: no such folder (invalid_workspace)',
    });
  });
});
