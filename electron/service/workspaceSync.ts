// The sync axis's source manifests, behind one import (issue 25): what the Session's scans compare each
// destination's state with (OpenWorkspace.sources), for the CLI's `scan`, which loads it only for a
// workspace that configures a source (cli/syncLoader.ts): the rules load zod.

export { SourceManifests } from '../engine/sourceManifests';
