// A workspace host as the app shows it (issue 15): its connection's state, why it failed or was lost
// (the named failures of electron/remote/sshFailures.ts), and what its agent said in its handshake.
// Pure; never imports Node, Electron or the DOM.

import { z } from 'zod';
import { issueSchema } from './issueSchema';
import { workspaceDestinationSchema, workspaceSummarySchema } from './workspaceSchema';

export const hostConnectionSchema = z.enum(['connecting', 'connected', 'failed', 'lost']);
export type HostConnection = z.infer<typeof hostConnectionSchema>;

export const hostStateSchema = z.object({
  /** The workspace file's `hosts[].name`: what its destinations' ids start with (`web-1:docs-us`). */
  name: z.string(),
  /** `ssh://[user@]host[:port]/path` as the workspace file gives it. */
  url: z.string(),
  state: hostConnectionSchema,
  /** Why it failed or was lost: a RemoteFailure code (`host_unreachable`, `auth_failed`, `connection_lost`…) and what to do. */
  failure: z
    .object({
      code: z.string(),
      message: z.string(),
      /** A workspace there that does not load (invalid_workspace): its file and every problem, each at its field. */
      file: z.string().optional(),
      issues: z.array(issueSchema).optional(),
    })
    .optional(),
  /** What the agent said in its handshake, once connected. */
  agent: z.object({ version: z.string(), host: z.string(), platform: z.string() }).optional(),
  /** How many destinations its workspace lists (known once connected; kept while lost). */
  destinations: z.number(),
  /** When the state last changed (ISO 8601). */
  since: z.string(),
  /** When it was last connected (ISO 8601): what its destinations' statuses date from while it is lost. */
  lastConnected: z.string().optional(),
  /** While lost: when the next automatic reconnect starts (ISO 8601), and how many tries came before it. */
  retryAt: z.string().optional(),
  retries: z.number().optional(),
  /** The host's settings as the workspace file gives them (for the Edit host dialog). */
  settings: z
    .object({
      agent: z.string().optional(),
      identityFile: z.string().optional(),
      jumpHost: z.string().optional(),
      sshConfig: z.string().optional(),
      /** Seconds, as the file's `connect_timeout` gives them. */
      connectTimeout: z.number().optional(),
    })
    .optional(),
});
export type HostState = z.infer<typeof hostStateSchema>;

/** The `hostState` event: a host's new state; on `connected`, its destinations (ids as `NAME:ID`) come with it. */
export const hostStateEventSchema = z.object({
  host: hostStateSchema,
  destinations: z.array(workspaceDestinationSchema).optional(),
  /** On `connected`: the workspace its agent opened there (kind, where, its own warnings). */
  workspace: workspaceSummarySchema.pick({ kind: true, root: true, path: true, issues: true }).optional(),
});
export type HostStateEvent = z.infer<typeof hostStateEventSchema>;

/** `NAME:ID`: how a remote destination is named in this window (the CLI's scan names them the same way). */
export function remoteDestinationId(host: string, id: string): string {
  return `${host}:${id}`;
}

/** The host's own id of a destination named `NAME:ID`, or undefined when it is not on that host. */
export function idOnHost(host: string, id: string): string | undefined {
  return id.startsWith(`${host}:`) ? id.slice(host.length + 1) : undefined;
}
