// What the Session needs of a connection to a workspace host's agent (issue 15): calls, jobs with
// their items and progress, cancel, and how it ended. Declared here so that the service routes to
// hosts without knowing ssh: remote/hostConnector.ts makes these from AgentConnection, the tests from
// a fake. Types only.

import type { ApiResult, JobItemOf, JobMethod, JobResultOf, MethodName, RequestOf, ResponseOf } from '../../shared/api';
import type { WorkspaceHost } from '../../shared/workspaceSchema';
import type { ApplyStep } from '../../shared/plan';
import type { DestinationChanges } from '../../shared/hostWatch';

/** A named failure (remote/sshFailures.ts's RemoteFailure has this shape): what happened and what to do. */
export interface HostFailure {
  code: string;
  message: string;
}

export interface HostJobHandlers<M extends JobMethod> {
  onItem?: (item: JobItemOf<M>) => void;
  onProgress?: (progress: { done: number; total: number; bytes: number; step?: ApplyStep }) => void;
  /** Aborting it asks the agent to cancel the job. */
  signal?: AbortSignal;
}

export interface HostLink {
  /** The agent's handshake. */
  readonly hello: { version: string; host: string; platform: string };
  /** Set once the connection ended other than by close(): why. */
  readonly lost: HostFailure | undefined;
  /** Settles when the connection ends, however. */
  readonly ended: Promise<void>;
  /** Rejects with a HostFailure when the connection is (or gets) lost. */
  call<M extends MethodName>(method: M, request: RequestOf<M>): Promise<ApiResult<ResponseOf<M>>>;
  /** Resolves with the job's ending; rejects with a HostFailure when the connection is lost before it. */
  job<M extends JobMethod>(method: M, request: RequestOf<M>, handlers?: HostJobHandlers<M>): Promise<ApiResult<JobResultOf<M>>>;
  /** Hears the agent's `destinationChanges` events (after `watchDestinations`); a link without it cannot be watched. */
  onDestinationChanges?(listener: (changes: DestinationChanges) => void): () => void;
  close(): Promise<void>;
}

/**
 * Connects to a host and waits for its agent's handshake; rejects with a HostFailure. Aborting
 * `signal` before the handshake stops whatever the connect started and rejects with its reason.
 */
export type HostConnector = (host: WorkspaceHost, signal?: AbortSignal) => Promise<HostLink>;
