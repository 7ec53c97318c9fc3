// One hook per API method the views use, named for what they fetch or do. Thin over useApiCall.

import type { RequestOf } from '../../shared/api';
import { useAppState } from '../state/store';
import { useApiCall, useApiQuery } from './useApiCall';

/** The open destination's state, raw text, issues and files on disk; reloads when it changes on disk. */
export function useInspectDestination(destination: string | undefined) {
  const revision = useAppState((state) => (destination ? (state.revisions.get(destination) ?? 0) : 0));
  return useApiQuery('inspectDestination', destination ? { destination } : undefined, `${destination}@${revision}`);
}

export const useCompare = () => useApiCall('compare');
export const usePlanReplace = () => useApiCall('planReplace');
export const usePlanRepair = () => useApiCall('planRepair');
export const usePlanDiscardStaging = () => useApiCall('planDiscardStaging');
export const useCompareFolder = () => useApiCall('compareFolder');
export const usePlanAdopt = () => useApiCall('planAdopt');
export const useExportReport = () => useApiCall('exportReport');
export const useChooseWorkspace = () => useApiCall('chooseWorkspace');
export const useOpenLink = () => useApiCall('openLink');
export const useRevealPath = () => useApiCall('revealPath');

/** One output's content diff; reloads when the request changes or the destination changes on disk. */
export function useContentDiff(request: RequestOf<'contentDiff'> | undefined) {
  const revision = useAppState((state) => (request ? (state.revisions.get(request.destination) ?? 0) : 0));
  const key = request ? `${JSON.stringify(request)}@${revision}` : '';
  return useApiQuery('contentDiff', request, key);
}

/** The open workspace's source bundles, read again when another workspace opens or Rescan re-reads it. */
export function useSourceBundles() {
  const workspace = useAppState((state) => state.workspace);
  return useApiQuery(
    'listSourceBundles',
    workspace ? {} : undefined,
    workspace ? `${workspace.path}@${workspace.destinations.length}` : '',
  );
}

/** The history journal (of one destination, or of the workspace); reloads after that destination changes. */
export function useHistory(destination: string | undefined, reload = 0) {
  const revision = useAppState((state) => (destination ? (state.revisions.get(destination) ?? 0) : 0));
  return useApiQuery('history', destination ? { destination } : {}, `${destination ?? '*'}@${revision}#${reload}`);
}

/** The backups of one destination (and where its next apply's backup goes), or of the workspace; reloads after it changes. */
export function useBackups(destination: string | undefined, reload = 0) {
  const revision = useAppState((state) => (destination ? (state.revisions.get(destination) ?? 0) : 0));
  return useApiQuery('listBackups', destination ? { destination } : {}, `${destination ?? '*'}@${revision}#${reload}`);
}

export const usePlanRestore = () => useApiCall('planRestore');
export const usePruneBackups = () => useApiCall('pruneBackups');
