// What the app does with the engine on the user's behalf, one module per job; importers read them
// here. Thin: each calls the API client and writes results into the store.

export { cancelJob, dismissError, reportError, trackedJob } from './jobActions';
export { applyWorkspaceReload } from './listUpdates';
export { scan, verify } from './scanActions';
export { applyPlan } from './applyActions';
export {
  nextTask,
  openWorkspace,
  recentWorkspaces,
  rescan,
  showWorkspace,
  showWorkspaceInSlices,
  tryOpenWorkspace,
} from './workspaceActions';
export { addHost, applyHostState, editHost, reconnectHost, refreshHosts, removeHost, watchHosts } from './hostActions';
export { applyLiveRefresh, followLiveRefresh, refreshLiveRefreshStatus } from './liveRefreshActions';
export { reconnect, reinspect, watchConnection } from './connectionActions';
export { closeRestore, openRestore, showBackup } from './backupActions';
export type { JobResultOf } from '../../shared/api';
