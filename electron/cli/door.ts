// The command line's one door to the service (issue 25): an in-process Session driven through the
// same typed client the renderer uses (shared/apiClient.ts); for ssh:// paths the same Session reaches
// the host (hostDoor.ts) and routes `NAME:ID` there as the app does (service/hostRouting.ts). Commands render the answers; they reach
// no engine room. Here too: where a command's workspace, journal and backups are (workspaceContext.ts,
// --history, --backup-dir, --no-backup), and DEST opened as one destination of that workspace.

import os from 'node:os';
import path from 'node:path';
import type {
  ApiResult,
  DestinationEntry,
  HostState,
  HostStateEvent,
  JobItemOf,
  JobMethod,
  JobResultOf,
  MethodName,
  RequestOf,
  ResponseOf,
} from '../../shared/api';
import type { ApplyStep } from '../../shared/plan';
import { DEFAULT_BACKUP_KEEP, type BackupSettings } from '../../shared/backupSchema';
import { clientFromBridge, runJob } from '../../shared/apiClient';
import { formatIssuePath, type Issue } from '../../shared/issues';
import { Session } from '../service/session';
import { sessionBridge } from '../service/sessionBridge';
import type { SessionStorage } from '../service/sessionStorage';
import type { SessionOptions } from '../service/sessionOptions';
import { CliError, type CliIo } from './command';
import { printable } from './terminalText';
import { findWorkspace, nearestWorkspaceFile, workspaceOrigin, WORKSPACE_ENV, type WorkspaceContext } from './workspaceContext';

export interface DoorJobHandlers<M extends JobMethod> {
  onItem?: (item: JobItemOf<M>) => void;
  onProgress?: (progress: { done: number; total: number; bytes: number; step?: ApplyStep }) => void;
}

/** The API as a command sees it: the same on this machine and on a host (service/hostLink.ts has this shape). */
export interface Door {
  call<M extends MethodName>(method: M, request: RequestOf<M>): Promise<ApiResult<ResponseOf<M>>>;
  job<M extends JobMethod>(method: M, request: RequestOf<M>, handlers?: DoorJobHandlers<M>): Promise<ApiResult<JobResultOf<M>>>;
}

/** A destination opened through a door: its id there, and how the Undo line names it. */
export interface OpenedDestination {
  id: string;
  /** `[user@]host[:port]` when it is on a host: every question names it. */
  host?: string;
  /** DEST as `backups restore` takes it back (an id with its workspace, an absolute path, an ssh URL). */
  undoDestination: string;
  /** The options that restore needs to find the same backups and journal (`--workspace W`, `--backup-dir D`). */
  undoOptions: string[];
  /** The source the workspace configures for it. */
  source?: string;
}

/** Where a command's workspace, journal and backups are, from its options and its environment. */
export interface CliPlaces {
  workspace?: WorkspaceContext;
  storage: SessionStorage;
  /** Options an Undo line repeats so that the restore finds the same backups and journal. */
  undoOptions: string[];
  /** Why backups are off, when an option said so. */
  backupsOff?: string;
}

export const placeOptions = {
  workspace: { type: 'string' },
  history: { type: 'string' },
  'backup-dir': { type: 'string' },
  'no-backup': { type: 'boolean' },
} as const;

function folderOption(value: string | boolean | undefined, option: string, io: CliIo): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '')
    throw new CliError(`--${option} needs a ${option === 'history' ? 'file' : 'folder'}`);
  return path.resolve(io.cwd, value);
}

export function cliPlaces(options: Record<string, string | boolean | undefined>, io: CliIo): CliPlaces {
  if (options.history !== undefined && options.workspace !== undefined)
    throw new CliError('give --history FILE or --workspace W, not both');
  if (options['backup-dir'] !== undefined && options['no-backup'] === true)
    throw new CliError('give --backup-dir DIR or --no-backup, not both');
  const historyFile = folderOption(options.history, 'history', io);
  const backupDir = folderOption(options['backup-dir'], 'backup-dir', io);
  // --history names the journal: a workspace found from the current folder would name another.
  const workspace = historyFile !== undefined ? undefined : findWorkspace(options, io);
  let backups: BackupSettings | undefined;
  if (backupDir !== undefined) backups = { enabled: true, folder: backupDir, keep: DEFAULT_BACKUP_KEEP };
  if (options['no-backup'] === true) backups = { enabled: false };
  return {
    ...(workspace ? { workspace } : {}),
    storage: {
      ...(historyFile !== undefined ? { historyFile } : {}),
      ...(backups ? { backups } : {}),
      env: { ...io.env, HOME: io.env.HOME ?? os.homedir() },
    },
    undoOptions: [
      ...(backupDir !== undefined ? ['--backup-dir', backupDir] : []),
      ...(historyFile !== undefined ? ['--history', historyFile] : []),
    ],
    ...(options['no-backup'] === true ? { backupsOff: '--no-backup' } : {}),
  };
}

const noted = new WeakSet<CliIo>();

/** Said once on stderr by a command that runs without a workspace: where its journal and backups go instead. */
export function noWorkspaceNote(command: string, io: CliIo): void {
  if (noted.has(io)) return;
  noted.add(io);
  io.stderr(
    `distributor-inspector ${command}: no workspace (no --workspace, no $${WORKSPACE_ENV}, no distributor-inspector.json here or above): ` +
      `ids and source as given; the journal and backups are your own, in your state folder\n`,
  );
}

/** A host the Session reached, settled: connected with its destinations (ids `NAME:ID`) and its workspace there, or why not. */
export type SettledHost = { state: HostState; destinations: DestinationEntry[]; workspace?: HostStateEvent['workspace'] };

/** The door of a Session that reaches hosts: opening an `ssh://` path waits until its host has settled. */
export interface HostDoor extends Door {
  openHost(url: string, asDestination: boolean): Promise<SettledHost>;
  /** Hears each host's new state (the app's `hostState` event); returns the unsubscribe. */
  onHostState(listener: (event: HostStateEvent) => void): () => void;
}

/** What a command adds to its Session: how it reaches hosts (at most how many connecting at once), and the verify stat cache. */
export type DoorOptions = Required<Pick<SessionOptions, 'connectHost'>> & Pick<SessionOptions, 'hostsParallel' | 'statCacheFile'>;

/** Runs `work` with a door to a Session of this process, made for these places; closed after. */
export async function withLocalDoor<T>(places: CliPlaces, work: (door: Door) => Promise<T>): Promise<T>;
/** The same Session reaching hosts (hostDoor.ts: loaded only when a command reaches a host). */
export async function withLocalDoor<T>(places: CliPlaces, work: (door: HostDoor) => Promise<T>, reach: DoorOptions): Promise<T>;
export async function withLocalDoor<T>(places: CliPlaces, work: (door: HostDoor) => Promise<T>, reach?: DoorOptions): Promise<T> {
  // The client is this process: answers are handed over, not carried (SessionOptions.checkAnswers).
  const session = new Session({ transport: 'cli', storage: places.storage, checkAnswers: false, ...reach });
  const client = clientFromBridge(sessionBridge(session), 'cli');
  const onHostState = (listener: (event: HostStateEvent) => void) =>
    session.onEvent((event) => {
      if (event.event === 'hostState') listener(event.data);
    });
  const door: HostDoor = {
    call: (method, request) => client.invoke(method, request),
    job: (method, request, handlers = {}) =>
      runJob(client, method, request, {
        ...(handlers.onItem ? { onItem: handlers.onItem } : {}),
        ...(handlers.onProgress ? { onProgress: handlers.onProgress } : {}),
      }),
    onHostState,
    // Heard from before the call: the host's first state is told while the workspace opens.
    openHost: async (url, asDestination) => {
      let heard: (settled: SettledHost) => void = () => {};
      const settled = new Promise<SettledHost>((resolve) => (heard = resolve));
      const stop = onHostState(({ host, destinations, workspace }) => {
        if (host.state !== 'connecting') heard({ state: host, destinations: destinations ?? [], ...(workspace ? { workspace } : {}) });
      });
      try {
        const opened = answerOf(await door.call('openWorkspace', { path: url, asDestination }), 'openWorkspace');
        if (opened.issues.some((issue) => issue.severity === 'error'))
          throw new CliError(`openWorkspace: ${printable(opened.issues[0]!.message)} (${opened.issues[0]!.code})`);
        return await settled;
      } finally {
        stop();
      }
    },
  };
  try {
    return await work(door);
  } finally {
    await session.close();
  }
}

/** The value of an answer, or its error as a CliError: a workspace that does not load names its file and field. */
export function answerOf<T>(result: ApiResult<T>, what: string): T {
  if (result.ok) return result.value;
  const details = result.error.details as { file?: string; issues?: Issue[] } | undefined;
  const first = details?.issues?.[0];
  if (result.error.code === 'invalid_workspace' && details?.file !== undefined && first)
    throw new CliError(
      `${printable(details.file)}: ${first.path.length > 0 ? `${printable(formatIssuePath(first.path))}: ` : ''}${printable(first.message)}`,
    );
  throw new CliError(`${what}: ${printable(result.error.message)} (${result.error.code})`);
}

/** The workspace opened through the door; its file (or folder) as the Undo line names it. */
export async function openWorkspaceAt(door: Door, context: WorkspaceContext) {
  return answerOf(await door.call('openWorkspace', { path: context.path }), 'openWorkspace');
}

/**
 * DEST (an id of the workspace, or a path) opened as one destination: in the command's workspace when
 * it holds DEST, else in the workspace above DEST (the one that holds it), else as a folder of its own
 * (the user's journal and backups). A workspace named by --workspace or the environment must hold DEST.
 */
export async function openLocalDestination(
  door: Door,
  given: string,
  places: CliPlaces,
  io: CliIo,
  command: string,
): Promise<OpenedDestination> {
  const wanted = path.resolve(io.cwd, given);
  const tried = new Set<string>();
  const candidates: WorkspaceContext[] = places.workspace ? [places.workspace] : [];
  if (places.workspace?.how !== 'option' && places.workspace?.how !== 'env') {
    const above = nearestWorkspaceFile(path.dirname(wanted));
    if (above !== undefined) candidates.push({ path: above, how: 'found' });
  }
  for (const context of candidates) {
    if (tried.has(context.path)) continue;
    tried.add(context.path);
    const summary = await openWorkspaceAt(door, context);
    const entry =
      summary.destinations.find((candidate) => candidate.host === undefined && candidate.id === given) ??
      summary.destinations.find((candidate) => candidate.host === undefined && path.resolve(candidate.path) === wanted);
    if (entry)
      return {
        id: entry.id,
        undoDestination: entry.id,
        undoOptions: ['--workspace', summary.path, ...places.undoOptions],
        ...(entry.source !== undefined ? { source: entry.source } : {}),
      };
    if (context.how !== 'found')
      throw new CliError(
        `${printable(given)} is not a destination of the workspace ${printable(summary.path)} (${workspaceOrigin(context)}; it lists ${summary.destinations.length}: name one by id or path)`,
      );
  }
  if (places.storage.historyFile === undefined) noWorkspaceNote(command, io);
  const opened = answerOf(await door.call('openWorkspace', { path: wanted, asDestination: true }), 'openWorkspace');
  return { id: opened.destinations[0]!.id, undoDestination: wanted, undoOptions: places.undoOptions };
}
