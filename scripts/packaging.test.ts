// What goes into the desktop package, checked without an Electron binary: electron-builder.yml is
// loaded and schema-checked by electron-builder's own code, the bundles are built, and the package's
// file list is computed by applying electron-builder's own file matchers to the project tree.
// `electron-builder --dir` would be the direct check, but it needs to download Electron; this
// machine cannot, so the matchers are called the way electron-builder's packager calls them.

import { existsSync, lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { transform } from 'esbuild';
import { DebugLogger } from 'builder-util';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import type { Configuration } from 'app-builder-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../electron/testing/builtApp';

const root = fileURLToPath(new URL('..', import.meta.url));
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  main: string;
  author?: { name?: string; email?: string } | string;
  homepage?: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};

// getMainFileMatchers and getNodeModuleFileMatcher are electron-builder internals (no .d.ts): typed here.
type Filter = (file: string, stat: Stats) => boolean;
interface Matcher {
  from: string;
  patterns: string[];
  createFilter(): Filter;
}
const fileMatcher = createRequire(import.meta.url)('app-builder-lib/out/fileMatcher.js') as {
  getMainFileMatchers(
    appDir: string,
    destination: string,
    expand: (p: string) => string,
    platformOptions: object,
    packager: object,
    outDir: string,
    isElectronCompile: boolean,
  ): Matcher[];
  getNodeModuleFileMatcher(
    appDir: string,
    destination: string,
    expand: (p: string) => string,
    platformOptions: object,
    info: object,
  ): Matcher;
};

/** The bundles Node or Electron loads by path, and the source each is built from. */
const entryPoints = [
  { source: 'electron/cli.ts', output: 'dist/cli.js' },
  { source: 'electron/engine/hashWorker.ts', output: 'dist/hashWorker.js' },
  { source: 'electron/main.ts', output: 'dist/main.js' },
  { source: 'electron/preload.ts', output: 'dist/preload.cjs' },
  { source: 'renderer/index.html', output: 'dist/renderer/index.html' },
];
const presentEntryPoints = entryPoints.filter((entry) => existsSync(join(root, entry.source)));

let config: Configuration;
let packaged: string[];
let nodeModulesFilter: Filter;

function walk(dir: string, filter: Filter, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (!filter(path, stat)) continue;
    if (stat.isDirectory()) walk(path, filter, out);
    else out.push(relative(root, path).split(sep).join('/'));
  }
}

beforeAll(async () => {
  await ensureBuilt(existsSync(join(root, 'renderer/index.html')) ? ['node', 'renderer'] : ['node']);

  config = await getConfig(root, null, null);
  const info = {
    projectDir: root,
    buildResourcesDir: config.directories?.buildResources ?? 'build',
    isPrepackedAppAsar: false,
    config,
    debugLogger: new DebugLogger(false),
  };
  const outDir = join(root, (config.directories?.output ?? 'dist').replace('${version}', '0.0.0'));
  const matchers = fileMatcher.getMainFileMatchers(root, '/app', (pattern) => pattern, {}, { info }, outDir, false);
  packaged = [];
  for (const matcher of matchers) walk(matcher.from, matcher.createFilter(), packaged);
  packaged.sort();
  nodeModulesFilter = fileMatcher.getNodeModuleFileMatcher(root, '/app', (pattern) => pattern, {}, info).createFilter();
}, 60_000);

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema validation", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    // A control: the same validation does reject an unknown option, so the pass above means something.
    await expect(validateConfiguration({ ...config, autoUpdateEverything: true } as Configuration, new DebugLogger(false))).rejects.toThrow(
      /autoUpdateEverything/,
    );
  });

  it('names the app and builds an asar archive with the bundled main as entry', () => {
    expect(config.appId).toBe('dev.distributor.inspector');
    expect(config.productName).toBe('Distributor Inspector');
    expect(config.asar).toBe(true);
    expect(config.extraMetadata?.main).toBe('dist/main.js');
    expect(packageJson.main).toBe('dist/main.js');
  });

  it('targets AppImage and deb on Linux, dmg and zip on macOS, nsis on Windows', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual(['dmg', 'zip']);
    expect(config.win?.target).toEqual(['nsis']);
  });

  it('flips the fuses: no run-as-node, NODE_OPTIONS or --inspect, asar only, no extra file:// privileges', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('publishes nothing and has no auto-updater', () => {
    expect(config.publish).toBeNull();
    expect(packageJson.scripts.dist).toBe('npm run build && electron-builder --publish never');
    expect({ ...packageJson.dependencies, ...packageJson.devDependencies }).not.toHaveProperty('electron-updater');
  });

  it('has what a deb needs from package.json: a maintainer with an email, and a homepage', () => {
    const author = packageJson.author;
    expect(typeof author === 'object' ? author.email : author).toMatch(/^[^@\s<>]+@[^@\s<>]+\.[a-z]+$|<[^@\s]+@[^@\s]+>/);
    expect(packageJson.homepage).toMatch(/^https:\/\//);
  });

  it('points at icons that are real PNG files of the sizes electron-builder needs', () => {
    for (const [file, size] of [
      ['build/icon.png', 512],
      ['build/icons/512x512.png', 512],
      ['build/icons/256x256.png', 256],
    ] as const) {
      const png = readFileSync(join(root, file));
      expect(png.subarray(0, 8).toString('hex'), file).toBe('89504e470d0a1a0a');
      expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
      expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]], file).toEqual([size, size, 8, 6]);
      // The pixel data inflates to exactly one filter byte plus size RGBA pixels per row.
      const idat = png.indexOf('IDAT');
      const pixels = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
      expect(pixels.length, file).toBe(size * (1 + size * 4));
    }
    expect(config.mac?.icon).toBe('build/icon.png');
    expect(config.win?.icon).toBe('build/icon.png');
    expect(config.linux?.icon).toBe('build/icons');
  });
});

describe('the package contents', () => {
  it('holds every entry point the build produced', () => {
    expect(presentEntryPoints.length).toBeGreaterThanOrEqual(2);
    for (const entry of presentEntryPoints) {
      expect(existsSync(join(root, entry.output)), `${entry.output} (built from ${entry.source})`).toBe(true);
      expect(packaged).toContain(entry.output);
    }
  });

  it("ships React's production build, even when Vitest (NODE_ENV=test) made the build", () => {
    const scripts = packaged.filter((file) => file.startsWith('dist/renderer/') && file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const development = scripts.filter((file) => /\bjsxDEV\b|react-dom\.development/.test(readFileSync(join(root, file), 'utf8')));
    expect(development).toEqual([]);
  });

  it('holds only package.json and built files under dist/, without source maps', () => {
    expect(packaged).toContain('package.json');
    const unexpected = packaged.filter((file) => file !== 'package.json' && !file.startsWith('dist/'));
    expect(unexpected).toEqual([]);
    expect(packaged.filter((file) => file.endsWith('.map'))).toEqual([]);
  });

  it('holds no sources, tests, fixtures, e2e, docs, bench or scripts', () => {
    const forbidden =
      /^(electron|shared|renderer|e2e|docs|bench|scripts|build|bin|fixtures|test-results|release)\/|\.(test|spec)\.|\.tsx?$|^tsconfig|^vitest\.config|^vite\.config|^electron-builder\.yml$|^README/;
    expect(packaged.filter((file) => forbidden.test(file))).toEqual([]);
  });

  it('copies no node_modules: neither dev-only packages nor the dependencies already bundled', () => {
    expect(packaged.filter((file) => file.includes('node_modules'))).toEqual([]);
    for (const name of [...Object.keys(packageJson.dependencies), ...Object.keys(packageJson.devDependencies)]) {
      const manifest = join(root, 'node_modules', name, 'package.json');
      if (!existsSync(manifest)) continue;
      expect(nodeModulesFilter(manifest, lstatSync(manifest)), `node_modules/${name}`).toBe(false);
    }
  });

  it('can do without node_modules: the bundles load nothing but Node built-ins and electron', async () => {
    const allowed = new Set([...builtinModules, 'electron']);
    const bundles = packaged.filter((file) => /\.(c|m)?js$/.test(file) && !file.startsWith('dist/renderer/'));
    expect(bundles.length).toBeGreaterThanOrEqual(2);
    // Package names only: `import … from 'markdown-it'` in a bundled doc comment is not a load, so
    // comments go first (esbuild's whitespace minifier drops them), then anything not a name.
    const packageName = /^(@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*(\/[^"'\s]*)?$/;
    for (const bundle of bundles) {
      const { code } = await transform(readFileSync(join(root, bundle), 'utf8'), {
        minifyWhitespace: true,
        loader: 'js',
        logLevel: 'silent',
      });
      const specifiers = [...code.matchAll(/(?:require\(|\bfrom|\bimport\()\s*["']([^"']+)["']/g)].map((match) => match[1]!);
      const loaded = specifiers.filter((specifier) => packageName.test(specifier) || specifier.startsWith('node:'));
      // A check that the specifiers were found; schemasOnDemand.cjs (zod and our schemas, required by
      // the CLI on demand) is plain code that loads nothing at all.
      if (bundle === 'dist/schemasOnDemand.cjs') expect(specifiers, bundle).toEqual([]);
      else expect(loaded.length, `${bundle} loads at least one built-in`).toBeGreaterThan(0);
      const external = loaded.filter((specifier) => !specifier.startsWith('node:') && !allowed.has(specifier.split('/')[0]!));
      expect(external, bundle).toEqual([]);
    }
  });
});
