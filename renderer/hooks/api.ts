// One hook per API method the views use, named for what they fetch or do. Thin over useApiCall.

import { useAppState } from '../state/store';
import { useApiCall, useApiQuery } from './useApiCall';

/** The open destination's state, raw text, issues and files on disk; reloads when it changes on disk. */
export function useInspectDestination(destination: string | undefined) {
  const revision = useAppState((state) => (destination ? (state.revisions.get(destination) ?? 0) : 0));
  return useApiQuery('inspectDestination', destination ? { destination } : undefined, `${destination}@${revision}`);
}

export const useCompare = () => useApiCall('compare');
export const usePlanReplace = () => useApiCall('planReplace');
export const useExportReport = () => useApiCall('exportReport');
export const useChooseWorkspace = () => useApiCall('chooseWorkspace');
export const useOpenLink = () => useApiCall('openLink');
export const useRevealPath = () => useApiCall('revealPath');
