// Builds everything that runs outside Vitest: the CLI, the Electron main and preload, the hash worker,
// and the renderer. Node-side code is bundled with esbuild; the renderer with Vite.
import { build } from 'esbuild';
import { existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
};

// One entry per file that Node or Electron loads by path. All sit side by side in dist/, so that
// `new URL('./hashWorker.js', import.meta.url)` finds the worker from every ESM bundle.
// The preload is CommonJS because Electron's sandboxed preloads cannot be ES modules.
const nodeEntries = [
  { in: 'electron/cli.ts', out: 'dist/cli.js', format: 'esm' },
  { in: 'electron/engine/hashWorker.ts', out: 'dist/hashWorker.js', format: 'esm', optional: true },
  { in: 'electron/main.ts', out: 'dist/main.js', format: 'esm', optional: true },
  { in: 'electron/preload.ts', out: 'dist/preload.cjs', format: 'cjs', optional: true },
];

if (want('node')) {
  for (const entry of nodeEntries) {
    if (entry.optional && !existsSync(new URL(`../${entry.in}`, import.meta.url))) continue;
    await build({
      ...common,
      entryPoints: [entry.in],
      outfile: entry.out,
      format: entry.format,
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
  await viteBuild({ configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)), logLevel: 'warn' });
}
