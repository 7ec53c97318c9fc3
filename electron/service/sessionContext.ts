// What the session's handlers (sessionDestinations.ts, sessionPlans.ts) may use of a Session: the
// open workspace, ids resolved, the job registry and the hash pool. Declared apart from session.ts so
// that the handlers depend on this, not on the class that wires them (no import cycle). Types only.

import type { z } from 'zod';
import type { DestinationEntry, MethodName, methods, ScanEntry, Transport, VerifyEntry, Workspace } from '../../shared/api';
import type { VerifyFreshness } from '../../shared/verifyFreshness';
import type { HashPool } from '../engine/hashPool';
import type { LoadedWorkspace } from '../engine/workspace';
import type { JobRegistry } from './jobRegistry';
import type { WorkspaceTarget } from '../operations/reloadWorkspace';
import type { BackupSettings } from '../../shared/backupSchema';

/** Places that override the workspace's; `env` is the environment the user's state folder is read from. */
export interface SessionStorage {
  /** The journal every apply appends to and `history` reads (--history FILE). */
  historyFile?: string;
  /** Where applies keep backups (--backup-dir DIR), or off (--no-backup). */
  backups?: BackupSettings;
  /** XDG_STATE_HOME and HOME as the user running the command has them (default: this process's). */
  env?: Record<string, string | undefined>;
}

/** The request a handler receives, already validated. */
export type RequestValue<M extends MethodName> = z.output<(typeof methods)[M]['request']>;

/** What a session knows about the open workspace. */
export interface OpenWorkspace {
  summary: Workspace;
  /** As the workspace loader gave it: what scanWorkspace takes. */
  loaded: LoadedWorkspace;
  /** What was opened, so that Rescan reads it again the same way. */
  opened: WorkspaceTarget;
  byId: Map<string, DestinationEntry>;
  scans: Map<string, ScanEntry>;
  verifies: Map<string, HeldVerify>;
}

/** A verify result as the session keeps it: with its stamp, and whether a re-read since left it describing the disk. */
export interface HeldVerify {
  report: VerifyEntry['report'];
  stamp: VerifyEntry['stamp'];
  freshness: VerifyFreshness;
}

export interface SessionState {
  workspace?: OpenWorkspace;
}

export interface SessionContext {
  readonly state: SessionState;
  /** How its client reaches it (what the history journal records as the transport), and where applies keep backups and the journal. */
  readonly options: { readonly transport: Transport; readonly storage?: SessionStorage };
  readonly jobs: JobRegistry;
  /** The open workspace; fails with no_workspace when there is none. */
  workspace(): OpenWorkspace;
  /** A destination of the open workspace by id; fails with not_found for an unknown id. */
  destination(id: string): DestinationEntry;
  /** The session's one pool of worker threads. */
  hashPool(): HashPool;
  /**
   * A path the operator typed or picked, made absolute by the one rule (engine/userPath.ts): `~` is
   * the engine user's home, a relative path is read from the open workspace's folder. Fails with
   * invalid_workspace or invalid_source naming the path when it names none.
   */
  typedPath(typed: string, what: 'workspace' | 'source'): string;
  /** Keeps live refresh quiet about a destination while the engine writes it (an apply); returns the release. */
  muteLiveRefresh(id: string): () => void;
}
