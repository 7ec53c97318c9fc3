// The zod schemas that the readers of a destination (inspect, the scan's workers, apply's re-reads)
// need only off their usual path: to describe what is wrong with a document the plain predicates
// refused, and to read a staging folder's marker; and the workspace file's, which a workspace that
// is a folder never reads. A valid destination never runs them.
//
// Here they are plain imports, as Vitest and the renderer's bundle take them. The Node bundles
// (scripts/buildPlugins.mjs) swap this module for electron/engine/schemasOnDemandFromDisk.ts, which
// loads this same module, built on its own as dist/schemasOnDemand.cjs, with its own copy of zod,
// synchronously and only on the first call: a cold `inspect` of a valid destination and every scan
// worker start without compiling or running zod (~20 ms of a ~120 ms start).
// Callers get the schemas from a call, never at import, and only use what they give back as data
// (safeParse results): a schema of this copy is never mixed with one built from another import of zod.

import { manifestFileSchema, manifestSchema, manifestShell, outputRecordSchema, stateShell } from './documentSchemas';
import { stagingMarkerSchema } from './stagingMarkerSchema';
import { workspaceFileSchema } from './workspaceSchema';

const schemas = {
  manifestFileSchema,
  manifestSchema,
  manifestShell,
  outputRecordSchema,
  stateShell,
  stagingMarkerSchema,
  workspaceFileSchema,
};
export type OnDemandSchemas = typeof schemas;

export function schemasOnDemand(): OnDemandSchemas {
  return schemas;
}
