// What a Session is made with, and the shape of its handler table: types only, apart from the class
// that wires them (session.ts).

import type { ChangeFeedOptions } from './changeFeed';
import type { ReconnectClock } from './hostReconnect';
import type { MethodName, methods, ResponseOf, Transport } from '../../shared/api';
import type { HostConnector } from './hostLink';
import type { RequestValue } from './sessionContext';
import type { LiveRefreshOptions } from './sessionLiveRefresh';
import type { SessionStorage } from './sessionStorage';
import type { DemoControl } from './sessionDemo';

export type Handler<M extends MethodName> = (request: RequestValue<M>) => Promise<ResponseOf<M>>;
export type HandlerTable = { [M in MethodName]: Handler<M> };
/** Methods only the Electron shell can carry out (native dialogs, the file manager, the system browser). */
export type ElectronOnlyMethod = { [M in MethodName]: (typeof methods)[M] extends { electronOnly: true } ? M : never }[MethodName];

export interface SessionOptions {
  transport: Transport;
  /** The workspace the app was started on (`serve WORKSPACE`, the demo): opened before the first call. */
  initialWorkspace?: string;
  progressIntervalMs?: number;
  /**
   * How this Session reaches a workspace's hosts (remote/hostConnector.ts: ssh and the agent). Without
   * it a workspace's hosts are listed with a warning and not shown (the agent's own Session).
   */
  connectHost?: HostConnector;
  /** At most this many hosts connecting at once (default 8). */
  hostsParallel?: number;
  /** The clock of a lost host's automatic reconnects (hostReconnect.ts); tests give a fake one. */
  reconnectClock?: ReconnectClock;
  /**
   * Live refresh (docs/live-refresh.md): watch the open workspace and push `liveRefresh` events. On by
   * default, off (false) for the ssh agent, whose client asks when it wants to know.
   */
  liveRefresh?: boolean | LiveRefreshOptions;
  /** A host's agent: how it watches its destinations once its client asks (`watchDestinations`, service/changeFeed.ts). */
  changeFeed?: ChangeFeedOptions;
  /**
   * Where the verify stat cache lives (docs/verify-freshness.md): default the user's state folder
   * (`$XDG_STATE_HOME/distributor-inspector/verify-stat-cache.json`); false keeps none (every verify hashes every output).
   */
  statCacheFile?: string | false;
  /**
   * The user's preferences file (preferencesFile.ts: auto-verify on or off), read when the Session
   * starts and written by `setAutoVerify`. Without it the setting lasts for this Session only.
   */
  preferencesFile?: string;
  /**
   * Where applies keep backups and the journal instead of the workspace's (sessionStorage.ts). Given
   * (the command line), `history`, `listBackups` and `pruneBackups` also answer with no workspace open:
   * the user's own journal and backups folder.
   */
  storage?: SessionStorage;
  /** The demo generator, handed in by the shell that starts the app: lets the app reset its own demo (sessionDemo.ts). */
  demo?: DemoControl;
  /**
   * False for a client in this very process (the command line's door): what the engine answers is
   * handed over as it is, not checked against the table again (the plan of 10,000 writes and the
   * apply's result took ~0.2 s of zod). Requests are parsed either way, and every transport that
   * carries answers out (IPC, HTTP, the agent's stdio) keeps the check; default true.
   */
  checkAnswers?: boolean;
}
