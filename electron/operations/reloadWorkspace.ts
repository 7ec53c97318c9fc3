// operations/: may be imported by service/ and cli/. Re-reads the open workspace (its folder, or its
// distributor-inspector.json) and reconciles the list: what came, went or changed its configuration.
// The one step Rescan and live refresh share. Reads the disk, never writes it; never loses the list:
// a workspace that no longer loads comes back as a problem naming the file and the field, and the
// caller keeps showing the last good list.

import { error, formatIssuePath, type Issue } from '../../shared/issues';
import { reconcileDestinations, type WorkspaceChanges } from '../../shared/workspaceReload';
import type { WorkspaceDestination, WorkspaceReloadProblem } from '../../shared/workspaceSchema';
import { loadSingleDestination, loadWorkspace, type LoadedWorkspace, type WorkspaceLoad } from '../engine/workspace';
import { isSshUrl, parseSshUrl } from '../../shared/sshUrl';

/** What was opened, so that it can be read again the same way. */
export interface WorkspaceTarget {
  /** The folder or file the operator named (absolute). */
  target: string;
  /** The folder itself is the one destination (the CLI's inspect, compare, replace of one DEST on an agent). */
  asDestination: boolean;
}

export type WorkspaceReload =
  | { ok: true; loaded: LoadedWorkspace; issues: Issue[]; changes: WorkspaceChanges; readAt: string }
  | { ok: false; problem: WorkspaceReloadProblem };

/** `file: field: message` of the first problem: the one line an error or a banner shows. */
export function workspaceProblemMessage(file: string, issues: readonly Issue[]): string {
  const first = issues[0];
  if (!first) return `${file}: cannot be opened`;
  return `${file}: ${first.path.length ? `${formatIssuePath(first.path)}: ` : ''}${first.message}`;
}

/** Reads a workspace as it is on disk now; a failure is a problem, with every issue. */
export async function readWorkspace(
  opened: WorkspaceTarget,
): Promise<{ ok: true; loaded: LoadedWorkspace; issues: Issue[]; readAt: string } | { ok: false; problem: WorkspaceReloadProblem }> {
  const load = isSshUrl(opened.target)
    ? hostWorkspace(opened.target, opened.asDestination)
    : opened.asDestination
      ? loadSingleDestination(opened.target)
      : await loadWorkspace(opened.target);
  const readAt = new Date().toISOString();
  if (!load.ok)
    return {
      ok: false,
      problem: { file: load.file, message: workspaceProblemMessage(load.file, load.issues), issues: load.issues, at: readAt },
    };
  return { ok: true, loaded: load.workspace, issues: load.issues, readAt };
}

/**
 * Re-reads the workspace opened as `opened` and says how its list differs from `previous` (by id: a
 * destination whose path or configuration changed is `changed`, its old results no longer apply).
 */
export async function reloadWorkspace(opened: WorkspaceTarget, previous: readonly WorkspaceDestination[]): Promise<WorkspaceReload> {
  const read = await readWorkspace(opened);
  if (!read.ok) return read;
  return { ...read, changes: reconcileDestinations(previous, read.loaded.destinations) };
}

/**
 * An `ssh://` path opened as a workspace of one host (issue 25: the command line's ssh paths): no
 * destination of this machine, and that host, named by its host name, whose agent opens the path
 * (as its one destination when `asDestination`). Its destinations come as the host connects.
 */
function hostWorkspace(url: string, asDestination: boolean): WorkspaceLoad {
  const parsed = parseSshUrl(url);
  if (!parsed.ok) return { ok: false, file: url, issues: [error([], 'invalid_ssh_url', parsed.message)] };
  return {
    ok: true,
    issues: [],
    workspace: {
      kind: 'folder',
      root: url,
      destinations: [],
      hosts: [{ name: parsed.value.host, url, ...(asDestination ? { asDestination: true } : {}) }],
    },
  };
}
