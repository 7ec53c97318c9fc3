// Loads a workspace: a folder of destinations, or a `distributor-inspector.json` file listing them.
// Never follows a symbolic link to find destinations (a linked subdirectory is skipped), and never
// throws on a bad workspace file: every problem is an issue naming the field.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { error, hasErrors, sortIssues, warning, type Issue } from '../../shared/issues';
import { literalIssues } from '../../shared/literalRules';
import { parseJsonObject } from '../../shared/parseDocument';
import { schemasOnDemand } from '../../shared/schemasOnDemand';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { parseSshUrl } from '../../shared/sshUrl';
import {
  WORKSPACE_DESTINATION_KNOWN_FIELDS,
  WORKSPACE_FILE_NAME,
  WORKSPACE_HOST_KNOWN_FIELDS,
  WORKSPACE_KNOWN_FIELDS,
} from '../../shared/workspaceFile';
import type {
  WorkspaceDestination,
  WorkspaceFileDestination,
  WorkspaceFileHost,
  WorkspaceHost,
  LoadedWorkspace,
  WorkspaceFile,
  WorkspaceLoad,
} from '../../shared/workspaceSchema';
import { fromZodIssues } from '../../shared/zodIssues';
import { folderHolding } from './pathInside';
import { describeFileKind, readRegularFile } from './regularFile';

/** A workspace file lists destinations; 64 MB is some 300,000 of them. */
const MAX_WORKSPACE_FILE_BYTES = 64 * 1024 * 1024;

export { WORKSPACE_FILE_NAME } from '../../shared/workspaceFile';
export type { LoadedWorkspace, WorkspaceDestination, WorkspaceLoad } from '../../shared/workspaceSchema';

function errnoCode(cause: unknown): string | undefined {
  return (cause as NodeJS.ErrnoException | undefined)?.code;
}

/** `a/b` whatever the platform: ids are shown and typed by people, and compared across machines. */
function relativeId(root: string, target: string): string {
  const relative = path.relative(root, target);
  return relative === '' ? path.basename(target) || target : relative.split(path.sep).join('/');
}

export async function loadWorkspace(target: string): Promise<WorkspaceLoad> {
  const resolved = path.resolve(target);
  // The target itself is what the user named, so a link to it is followed (like `find -H`);
  // nothing below it ever is.
  const stat = await fs.stat(resolved).catch((cause) => cause as NodeJS.ErrnoException);
  if (stat instanceof Error) {
    const why = errnoCode(stat) === 'ENOENT' ? 'does not exist' : `cannot be read (${errnoCode(stat) ?? stat.message})`;
    return { ok: false, file: resolved, issues: [error([], 'workspace_unreadable', `${resolved} ${why}`)] };
  }
  if (stat.isDirectory()) return loadFolder(resolved);
  if (stat.isFile()) return loadFile(resolved);
  return {
    ok: false,
    file: resolved,
    issues: [error([], 'workspace_not_file', `${resolved} is ${describeFileKind(stat)}, neither a folder nor a workspace file`)],
  };
}

/**
 * One folder as a workspace of exactly one destination, whatever it holds (missing, empty, a file,
 * unmanaged): what `inspect`, `compare` and `replace` of one DEST open on a remote agent. Reads nothing;
 * the inspection says what the folder is.
 */
export function loadSingleDestination(target: string): WorkspaceLoad {
  const root = path.resolve(target);
  return {
    ok: true,
    issues: [],
    workspace: { kind: 'folder', root, destinations: [{ id: relativeId(root, root), path: root, replacePolicy: 'allow' }] },
  };
}

async function loadFolder(root: string): Promise<WorkspaceLoad> {
  const holdsState = await fs.lstat(path.join(root, STATE_FILE_NAME)).then(
    () => true,
    () => false,
  );
  if (holdsState) {
    return {
      ok: true,
      issues: [],
      workspace: { kind: 'folder', root, destinations: [{ id: relativeId(root, root), path: root, replacePolicy: 'allow' }] },
    };
  }
  // A folder that holds a workspace file is that workspace: the file says which folders are
  // destinations and how they are configured (its own `destinations/` and `sources/` are not). The
  // state file is asked first: a destination may well hold an output of that name.
  const workspaceFile = path.join(root, WORKSPACE_FILE_NAME);
  const holdsWorkspaceFile = await fs.lstat(workspaceFile).then(
    (stat) => !stat.isDirectory(),
    () => false,
  );
  if (holdsWorkspaceFile) return loadFile(workspaceFile);
  let entries;
  try {
    entries = await fs.readdir(root, { withFileTypes: true });
  } catch (cause) {
    return {
      ok: false,
      file: root,
      issues: [error([], 'workspace_unreadable', `${root} cannot be listed (${errnoCode(cause) ?? String(cause)})`)],
    };
  }
  // Dirent types come from the directory itself (lstat semantics): a link to a directory is a link, skipped.
  const names = entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith('.')).map((entry) => entry.name);
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const destinations: WorkspaceDestination[] = names.map((name) => ({ id: name, path: path.join(root, name), replacePolicy: 'allow' }));
  return { ok: true, issues: [], workspace: { kind: 'folder', root, destinations } };
}

async function loadFile(file: string): Promise<WorkspaceLoad> {
  let bytes: Buffer;
  try {
    // stat said a file, but it may be swapped for a FIFO since: only a regular file is opened, non-blocking.
    const read = await readRegularFile(file, { followLinks: true, maxBytes: MAX_WORKSPACE_FILE_BYTES });
    if (read.kind !== 'bytes') {
      const why =
        read.kind === 'missing'
          ? 'does not exist'
          : read.kind === 'not_a_file'
            ? `is ${read.what}, not a workspace file`
            : `is ${read.sizeBytes} bytes, more than a workspace file may be (${MAX_WORKSPACE_FILE_BYTES})`;
      return { ok: false, file, issues: [error([], 'workspace_unreadable', `${file} ${why}`)] };
    }
    bytes = read.bytes;
  } catch (cause) {
    return {
      ok: false,
      file,
      issues: [error([], 'workspace_unreadable', `${file} cannot be read (${errnoCode(cause) ?? String(cause)})`)],
    };
  }
  const parsed = parseJsonObject(bytes);
  if (!parsed.ok) return { ok: false, file, issues: [parsed.error] };
  const { json, text } = parsed.value;
  // The schema from schemasOnDemand.ts: a workspace that is a folder never loads zod.
  const shape = schemasOnDemand().workspaceFileSchema.safeParse(json);
  const issues = [
    ...(shape.success ? [] : fromZodIssues(shape.error.issues, json)),
    ...unknownFieldWarnings(json),
    // A key written twice (the last wins): a warning, as in the state file.
    ...literalIssues(text, 'other'),
  ];
  if (!shape.success) return { ok: false, file, issues: sortIssues(issues) };

  const root = path.dirname(file);
  const destinations = (shape.data.destinations ?? []).map((entry) => toDestination(root, entry));
  issues.push(...duplicateIssues(destinations));
  const hosts = shape.data.hosts?.map(toHost);
  if (hosts) issues.push(...duplicateHostIssues(hosts));
  sortIssues(issues);
  if (hasErrors(issues)) return { ok: false, file, issues };
  assignIds(root, destinations);
  const historyFile = shape.data.history !== undefined ? path.resolve(root, shape.data.history) : undefined;
  if (historyFile !== undefined) {
    // By real path and inode, not by text: `hist -> destinations/docs/logs` puts the journal inside one.
    const inside = await folderHolding(historyFile, destinations);
    if (inside)
      return {
        ok: false,
        file,
        issues: [
          error(
            ['history'],
            'history_inside_destination',
            `${historyFile} is inside the destination ${inside.path} (compared by real path and inode, so also through a link): a forced replace would delete it; keep the journal outside every destination`,
          ),
        ],
      };
  }
  const backups = backupsOf(root, shape.data.backups);
  const backupsInside = backups?.folder === undefined ? undefined : await folderHolding(backups.folder, destinations);
  if (backups?.folder !== undefined && backupsInside)
    return {
      ok: false,
      file,
      issues: [
        error(
          ['backups', 'folder'],
          'backups_inside_destination',
          `${backups.folder} is inside the destination ${backupsInside.path}: a forced replace would delete the backups, and they would show as extra files; keep them outside every destination`,
        ),
      ],
    };
  return {
    ok: true,
    issues,
    workspace: {
      kind: 'file',
      root,
      file,
      destinations,
      ...(hosts ? { hosts } : {}),
      ...(historyFile !== undefined ? { historyFile } : {}),
      ...(backups ? { backups } : {}),
    },
  };
}

/** The file's `backups` resolved against its folder. */
function backupsOf(root: string, field: WorkspaceFile['backups']): LoadedWorkspace['backups'] {
  if (field === undefined) return undefined;
  if (field === 'off') return { off: true };
  return {
    ...(field.folder !== undefined ? { folder: path.resolve(root, field.folder) } : {}),
    ...(field.keep !== undefined ? { keep: field.keep } : {}),
  };
}

function unknownFieldWarnings(json: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  for (const key of Object.keys(json)) {
    if (!(WORKSPACE_KNOWN_FIELDS as readonly string[]).includes(key))
      issues.push(warning([key], 'unknown_field', `unknown field "${key}" is ignored`));
  }
  const lists = [
    ['destinations', WORKSPACE_DESTINATION_KNOWN_FIELDS],
    ['hosts', WORKSPACE_HOST_KNOWN_FIELDS],
  ] as const;
  for (const [field, known] of lists) {
    const list = json[field];
    if (!Array.isArray(list)) continue;
    list.forEach((entry: unknown, index) => {
      if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return;
      for (const key of Object.keys(entry)) {
        if (!(known as readonly string[]).includes(key))
          issues.push(warning([field, index, key], 'unknown_field', `unknown field "${key}" is ignored (a typo of a known field?)`));
      }
    });
  }
  return issues;
}

function toHost(entry: WorkspaceFileHost): WorkspaceHost {
  return {
    name: entry.name,
    url: entry.url,
    ...(entry.agent !== undefined ? { agent: entry.agent } : {}),
    ...(entry.identity_file !== undefined ? { identityFile: entry.identity_file } : {}),
    ...(entry.jump_host !== undefined ? { jumpHost: entry.jump_host } : {}),
    ...(entry.ssh_config !== undefined ? { sshConfig: entry.ssh_config } : {}),
    ...(entry.connect_timeout !== undefined ? { connectTimeoutMs: Math.ceil(entry.connect_timeout * 1000) } : {}),
  };
}

/** The same name twice (ids would collide), or the same folder of the same host twice (scanned twice). */
function duplicateHostIssues(hosts: WorkspaceHost[]): Issue[] {
  const issues: Issue[] = [];
  const byName = new Map<string, number>();
  const byPlace = new Map<string, number>();
  hosts.forEach((host, index) => {
    const earlierName = byName.get(host.name);
    if (earlierName !== undefined)
      issues.push(
        error(['hosts', index, 'name'], 'duplicate_host', `host name "${host.name}" is used twice (also at hosts[${earlierName}].name)`),
      );
    else byName.set(host.name, index);
    const target = parseSshUrl(host.url);
    if (!target.ok) return;
    const { user, host: name, port, path: where } = target.value;
    const place = JSON.stringify([user ?? null, name, port ?? null, where]);
    const earlierPlace = byPlace.get(place);
    if (earlierPlace !== undefined)
      issues.push(error(['hosts', index, 'url'], 'duplicate_host', `${host.url} is listed twice (also at hosts[${earlierPlace}].url)`));
    else byPlace.set(place, index);
  });
  return issues;
}

function toDestination(root: string, entry: WorkspaceFileDestination): WorkspaceDestination {
  const destination: WorkspaceDestination = { id: '', path: path.resolve(root, entry.path), replacePolicy: entry.replace_policy };
  if (entry.pipeline_id !== undefined) destination.pipelineId = entry.pipeline_id;
  if (entry.destination_id !== undefined) destination.destinationId = entry.destination_id;
  if (entry.source !== undefined) destination.source = path.resolve(root, entry.source);
  if (entry.base_url !== undefined) destination.baseUrl = entry.base_url;
  if (entry.primary !== undefined) destination.primary = entry.primary;
  return destination;
}

/** The same directory twice, or the same pipeline and destination id twice: the second one is the error. */
function duplicateIssues(destinations: WorkspaceDestination[]): Issue[] {
  const issues: Issue[] = [];
  const byPath = new Map<string, number>();
  const byIdentity = new Map<string, number>();
  destinations.forEach((destination, index) => {
    const earlierPath = byPath.get(destination.path);
    if (earlierPath !== undefined) {
      issues.push(
        error(
          ['destinations', index, 'path'],
          'duplicate_destination',
          `${destination.path} is listed twice (also at destinations[${earlierPath}].path)`,
        ),
      );
    } else {
      byPath.set(destination.path, index);
    }
    if (destination.destinationId === undefined) return;
    const identity = JSON.stringify([destination.pipelineId ?? null, destination.destinationId]);
    const earlierIdentity = byIdentity.get(identity);
    if (earlierIdentity !== undefined) {
      issues.push(
        error(
          ['destinations', index, 'destination_id'],
          'duplicate_destination_id',
          `destination_id "${destination.destinationId}"${destination.pipelineId ? ` of pipeline "${destination.pipelineId}"` : ''} is listed twice (also at destinations[${earlierIdentity}])`,
        ),
      );
    } else {
      byIdentity.set(identity, index);
    }
  });
  return issues;
}

/**
 * The configured destination_id where it is unique; `pipeline/destination` where two pipelines share
 * one; the path relative to the root otherwise. A rare collision left after that gets a `#n` suffix.
 */
function assignIds(root: string, destinations: WorkspaceDestination[]): void {
  const countByDestinationId = new Map<string, number>();
  for (const { destinationId } of destinations) {
    if (destinationId !== undefined) countByDestinationId.set(destinationId, (countByDestinationId.get(destinationId) ?? 0) + 1);
  }
  const taken = new Set<string>();
  for (const destination of destinations) {
    const { destinationId, pipelineId } = destination;
    let id: string;
    if (destinationId === undefined) id = relativeId(root, destination.path);
    else if (countByDestinationId.get(destinationId) === 1 || pipelineId === undefined) id = destinationId;
    else id = `${pipelineId}/${destinationId}`;
    let unique = id;
    for (let n = 2; taken.has(unique); n += 1) unique = `${id}#${n}`;
    taken.add(unique);
    destination.id = unique;
  }
}
