// Builds everything that runs outside Vitest: the CLI, the Electron main and preload, the hash worker,
// and the renderer. Node-side code is bundled with esbuild; the renderer with Vite.
import { build } from 'esbuild';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { englishZodLocalesOnly, SCHEMAS_ON_DEMAND_ENTRY, schemasOnDemandFromDisk } from './buildPlugins.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv.slice(2);
const want = (part) => only.length === 0 || only.includes(part);

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Minified: parsing the bundles is a large share of a cold CLI start and of every worker's start.
  // --debug stacks then show minified names; the .map beside each bundle (node --enable-source-maps) maps them back.
  minify: true,
  logLevel: 'warning',
  external: ['electron'],
  plugins: [englishZodLocalesOnly],
};

// One entry per file that Node or Electron loads by path. All sit side by side in dist/, so that
// `new URL('./hashWorker.js', import.meta.url)` finds the worker from every ESM bundle.
// The preload is CommonJS because Electron's sandboxed preloads cannot be ES modules.
// The CLI is split: cli.js holds the argument parsing and the command table, and each command's code
// is a chunk (dist/cli-*.js, beside the worker so `./hashWorker.js` resolves from every chunk)
// loaded only when that command runs: a cold `inspect` does not parse the server, markdown-it or replace.
// The CLI and the worker load zod's schemas for an invalid document only, from schemasOnDemand.cjs
// (scripts/buildPlugins.mjs): a CommonJS bundle, because only require loads a file synchronously.
const nodeEntries = [
  { in: 'electron/cli.ts', out: 'dist/cli.js', format: 'esm', split: true, schemasOnDemand: true },
  { in: 'electron/engine/hashWorker.ts', out: 'dist/hashWorker.js', format: 'esm', optional: true, schemasOnDemand: true },
  { ...SCHEMAS_ON_DEMAND_ENTRY, format: 'cjs' },
  { in: 'electron/main.ts', out: 'dist/main.js', format: 'esm', optional: true },
  { in: 'electron/preload.ts', out: 'dist/preload.cjs', format: 'cjs', optional: true },
];

if (want('node')) {
  for (const entry of nodeEntries) {
    if (entry.optional && !existsSync(new URL(`../${entry.in}`, import.meta.url))) continue;
    const output = entry.split
      ? { outdir: 'dist', splitting: true, entryNames: '[name]', chunkNames: 'cli-[name]-[hash]' }
      : { outfile: entry.out };
    // Chunks of an earlier build would otherwise be packaged beside the new ones.
    const distDir = fileURLToPath(new URL('../dist/', import.meta.url));
    if (entry.split && existsSync(distDir))
      for (const name of readdirSync(distDir).filter((file) => file.startsWith('cli-'))) rmSync(`${distDir}${name}`);
    await build({
      ...common,
      entryPoints: [entry.in],
      ...output,
      format: entry.format,
      plugins: entry.schemasOnDemand ? [...common.plugins, schemasOnDemandFromDisk] : common.plugins,
      // ESM bundles of CommonJS dependencies need a require of their own.
      banner:
        entry.format === 'esm'
          ? { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" }
          : undefined,
    });
  }
}

if (want('renderer') && existsSync(new URL('../renderer/index.html', import.meta.url))) {
  const { build: viteBuild } = await import('vite');
  rmSync(new URL('../dist/renderer', import.meta.url), { recursive: true, force: true });
  // Vite keeps a NODE_ENV it finds set: a build started from Vitest (NODE_ENV=test) would otherwise
  // ship React's development build, which the app, `npm start` and the UI bench then run.
  process.env.NODE_ENV = 'production';
  await viteBuild({ configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)), logLevel: 'warn' });
}
