// Types of buildPlugins.mjs, for the TypeScript that imports it (electron/cli/coldStart.test.ts).
import type { Plugin } from 'esbuild';
export const englishZodLocalesOnly: Plugin;
export const schemasOnDemandFromDisk: Plugin;
export const SCHEMAS_ON_DEMAND_ENTRY: { in: string; out: string };
