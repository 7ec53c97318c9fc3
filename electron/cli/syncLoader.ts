// The split point for the sync axis in `scan`: scanCommand.ts loads this module only for a workspace
// that configures a source, so the comparison rules (and zod, which their schemas load) are no part
// of a folder scan's cold start. Must hold nothing but the re-export (the boundary rules see the
// static import here) and the import of startupChunk.ts, which keeps the shared modules in one chunk.

import './startupChunk'; // what every command's start shares, as one chunk of the build

export { SourceManifests } from '../service/workspaceSync';
