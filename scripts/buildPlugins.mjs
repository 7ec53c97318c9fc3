// esbuild plugins of the Node bundles, shared by scripts/build.mjs and the tests that rebuild a
// bundle to look at what it loads (electron/cli/coldStart.test.ts).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// zod re-exports every one of its 40-odd locales as `z.locales`; we never use them (English messages,
// zod's default, are all we show), but the re-export kept 264 KB of them in each bundle, parsed at
// every start. Only `en` is left in that namespace.
export const englishZodLocalesOnly = {
  name: 'english-zod-locales-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: args.importer, namespace: 'zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js';",
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/** The stand-in for shared/schemasOnDemand.ts in the CLI and worker bundles, and the file it loads. */
export const SCHEMAS_ON_DEMAND_ENTRY = { in: 'shared/schemasOnDemand.ts', out: 'dist/schemasOnDemand.cjs' };
const fromDisk = join(root, 'electron', 'engine', 'schemasOnDemandFromDisk.ts');
const onDemand = join(root, 'shared', 'schemasOnDemand');

// shared/schemasOnDemand.ts imports zod and the schemas a reader needs only for an invalid document
// (or a workspace file). In the CLI and the worker its importers get
// electron/engine/schemasOnDemandFromDisk.ts instead, which requires dist/schemasOnDemand.cjs
// (SCHEMAS_ON_DEMAND_ENTRY) on first use: zod stays out of every chunk a valid destination's reader
// loads. Not for main.js, which loads zod for the API anyway.
export const schemasOnDemandFromDisk = {
  name: 'schemas-on-demand-from-disk',
  setup(build) {
    build.onResolve({ filter: /(^|\/)schemasOnDemand$/ }, (args) =>
      args.kind !== 'entry-point' && resolve(args.resolveDir, args.path) === onDemand ? { path: fromDisk } : undefined,
    );
  },
};
