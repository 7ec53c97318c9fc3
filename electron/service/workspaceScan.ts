// The lean door to scanning a workspace on this machine (issue 25): the loader and the one scan the
// Session's scan and verify jobs run (sessionDestinations.ts), for the CLI's `scan`, which must start
// fast and so drives them without the Session, the API table and zod. One implementation: both call
// scanWorkspace here. The sync axis's rules (and zod) stay behind their own split point
// (workspaceSync.ts), loaded only for a workspace that configures a source.

export { HashPool } from '../engine/hashPool';
export { coresBusySince, readCpuSample, type CpuSample } from '../engine/idleCores';
export { runInThread } from '../engine/poolInThread';
export { countRows, isFinding, scanWorkspace, type ScannedDestination } from '../engine/scan';
export { loadWorkspace, type LoadedWorkspace } from '../engine/workspace';
