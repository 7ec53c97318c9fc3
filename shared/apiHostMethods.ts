// The API methods about a workspace's remote hosts: their connection states, reconnecting one, and
// adding, editing or removing one in the workspace file. Part of the one table in shared/api.ts.

import { z } from 'zod';
import { empty, spec, type MethodSpec } from './apiSpec';
import { hostStateSchema } from './hostState';
import { hostWatchSchema } from './hostWatch';
import { workspaceSummarySchema } from './workspaceSchema';

/** A host's own ssh settings (issue 28), as typed: empty means not set. */
const sshSettings = {
  /** The key ssh offers (-i), a file on this machine. */
  identityFile: z.string().max(4096).optional(),
  /** The host ssh goes through (-J), `[user@]host[:port]`. */
  jumpHost: z.string().max(300).optional(),
  /** The ssh config file to read (-F), a file on this machine. */
  sshConfig: z.string().max(4096).optional(),
  /** Seconds the agent's handshake may take (the file's `connect_timeout`), as typed. */
  connectTimeout: z.string().max(40).optional(),
};

export const hostMethods = {
  hosts: spec({
    summary: "The open workspace's hosts (issue 15): each one's connection state, why it failed or was lost, and its agent",
    request: empty,
    response: z.object({ hosts: z.array(hostStateSchema) }),
  }),
  reconnectHost: spec({
    summary:
      'Connect to a workspace host again (after it failed or was lost) and read its destinations again; answers at once, the hostState events follow',
    request: z.strictObject({ name: z.string().min(1).max(63) }),
    response: hostStateSchema,
  }),
  addHost: spec({
    summary:
      'Add a host to the open workspace file (an ssh target and a folder of destinations or a workspace file on that host), saved to the file, then connected',
    request: z.strictObject({
      name: z.string().max(200),
      /** `[user@]host[:port]`, or an alias of ~/.ssh/config. */
      target: z.string().max(1000),
      /** Absolute, on that host: a folder of destinations or a distributor-inspector.json file. */
      path: z.string().max(4096),
      /** The agent command on that host (default `distributor-inspector`). */
      agent: z.string().max(1000).optional(),
      ...sshSettings,
    }),
    response: z.object({ workspace: workspaceSummarySchema, host: hostStateSchema }),
  }),
  watchDestinations: spec({
    summary:
      "A host's agent: watch the open workspace's destinations (every folder, any depth) and send each change as a destinationChanges event to this client; not_available where live refresh runs (the app, the browser host)",
    request: empty,
    response: hostWatchSchema,
  }),
  editHost: spec({
    summary:
      'Change a host of the open workspace file (its name, host, user, port, path, agent command and ssh settings), saved to the file (refused if the file changed since it was read), then connected again',
    request: z.strictObject({
      /** The host as it is named now. */
      name: z.string().min(1).max(63),
      settings: z.strictObject({
        name: z.string().max(200),
        /** Host name, address or ~/.ssh/config alias (no user, no port). */
        host: z.string().max(300),
        user: z.string().max(200).optional(),
        /** As typed; the engine says at the field when it is not 1 to 65535. */
        port: z.string().max(20).optional(),
        path: z.string().max(4096),
        agent: z.string().max(1000).optional(),
        ...sshSettings,
      }),
    }),
    response: z.object({ workspace: workspaceSummarySchema, host: hostStateSchema }),
  }),
  removeHost: spec({
    summary:
      'Remove a host from the open workspace file (refused if the file changed since it was read); its connection is closed and its destinations leave the list',
    request: z.strictObject({ name: z.string().min(1).max(63) }),
    response: z.object({ workspace: workspaceSummarySchema }),
  }),
} satisfies Record<string, MethodSpec>;
