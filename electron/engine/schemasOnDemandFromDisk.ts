// The Node bundles' shared/schemasOnDemand.ts (swapped in by scripts/buildPlugins.mjs): loads
// dist/schemasOnDemand.cjs, the same module built on its own with its own zod, synchronously with
// require, on the first call only. A valid destination's reader never calls it, so a cold CLI and a
// scan worker start without zod. Never used from source (Vitest and tsx take the shared module).

import { createRequire } from 'node:module';
import type { OnDemandSchemas, schemasOnDemand as fromSource } from '../../shared/schemasOnDemand';

let loaded: OnDemandSchemas | undefined;

export const schemasOnDemand: typeof fromSource = () => {
  // Every bundle that uses this sits in dist/ beside schemasOnDemand.cjs (scripts/build.mjs).
  loaded ??= (createRequire(import.meta.url)('./schemasOnDemand.cjs') as { schemasOnDemand: typeof fromSource }).schemasOnDemand();
  return loaded;
};
