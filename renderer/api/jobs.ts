// Runs one job method to its end over the client's events (shared/apiClient.ts, the one client the
// renderer and the command line share): re-exported where the renderer has always found it.

export { runJob, type JobHandlers, type JobOutcome } from '../../shared/apiClient';
