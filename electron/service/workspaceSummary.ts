// The open workspace as the API shows it (its summary), and what a re-read of it answers. Pure.

import type { DestinationEntry, Workspace } from '../../shared/api';
import { warning, type Issue } from '../../shared/issues';
import type { WorkspaceChanges } from '../../shared/workspaceReload';
import type { LoadedWorkspace } from '../engine/workspace';

/**
 * The app does not reach other hosts yet (the CLI's `scan` does): said once per host, so that a
 * workspace of hosts never looks like a workspace of only its local destinations.
 */
function hostsNotShown(hosts: { name: string; url: string }[] | undefined): Issue[] {
  return (hosts ?? []).map((host, index) =>
    warning(
      ['hosts', index],
      'host_not_shown',
      `host "${host.name}" (${host.url}) is not shown here: its destinations are scanned by \`distributor-inspector scan\` of this workspace file`,
    ),
  );
}

/** What a re-read of the workspace answers: the list now (or the last good one, with its problem) and what changed. */
export interface WorkspaceReloadAnswer {
  workspace: Workspace;
  changes: WorkspaceChanges;
}

export function summaryOf(
  loaded: LoadedWorkspace,
  destinations: DestinationEntry[],
  issues: Issue[],
  listReadAt: string,
  hostsShown: boolean,
): Workspace {
  return {
    path: loaded.file ?? loaded.root,
    kind: loaded.kind,
    root: loaded.root,
    destinations,
    issues: [...issues, ...(hostsShown ? [] : hostsNotShown(loaded.hosts))],
    listReadAt,
  };
}

/**
 * appInfo's view of the open workspace: with `first`, its summary lists only that many destinations
 * (the rest through destinationPage), beside how many it lists in all.
 */
export function firstOfWorkspace(
  summary: Workspace | undefined,
  first: number | undefined,
): { workspace?: Workspace; destinationCount?: number } {
  if (!summary) return {};
  const destinationCount = summary.destinations.length;
  if (first === undefined || first >= destinationCount) return { workspace: summary, destinationCount };
  return { workspace: { ...summary, destinations: summary.destinations.slice(0, first) }, destinationCount };
}

/** `count` destinations of the open workspace from position `from` (fewer at its end), with its total. */
export function destinationPage(
  summary: Workspace,
  from: number,
  count: number,
): { destinations: DestinationEntry[]; total: number; listReadAt?: string } {
  return {
    destinations: summary.destinations.slice(from, from + count),
    total: summary.destinations.length,
    ...(summary.listReadAt !== undefined ? { listReadAt: summary.listReadAt } : {}),
  };
}
