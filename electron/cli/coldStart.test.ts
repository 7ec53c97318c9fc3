import { build, type Metafile } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { englishZodLocalesOnly, schemasOnDemandFromDisk } from '../../scripts/buildPlugins.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The chunks a chunk loads before it runs: itself and every chunk it imports statically, transitively. */
function staticChunks(meta: Metafile, start: string, seen = new Set<string>()): Set<string> {
  if (seen.has(start)) return seen;
  seen.add(start);
  for (const imported of meta.outputs[start]!.imports)
    if (imported.kind === 'import-statement' && !imported.external) staticChunks(meta, imported.path, seen);
  return seen;
}

/** The source files a chunk loads before it runs: its own and those of every chunk it imports statically. */
function staticClosure(meta: Metafile, start: string): Set<string> {
  return new Set([...staticChunks(meta, start)].flatMap((output) => Object.keys(meta.outputs[output]!.inputs)));
}

/** The chunk of the build that holds a source file. */
function chunkOf(meta: Metafile, source: string): string {
  return Object.keys(meta.outputs).find((output) => Object.keys(meta.outputs[output]!.inputs).includes(source))!;
}

/** The metafile of a bundle built as scripts/build.mjs builds the CLI and the worker (split or not, same plugins). */
async function bundleMeta(entry: string, splitting: boolean): Promise<Metafile> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    splitting,
    format: 'esm',
    platform: 'node',
    outdir: 'dist-test-unused',
    write: false,
    metafile: true,
    logLevel: 'silent',
    external: ['electron'],
    plugins: [englishZodLocalesOnly, schemasOnDemandFromDisk],
  });
  return result.metafile;
}

const isZod = (source: string) => /(^|\/)node_modules\/zod\//.test(source);

describe('the cold start of a command', () => {
  it('loads neither the ssh client, the API schemas, the hash pool nor zod for a plain inspect', async () => {
    // The same split as scripts/build.mjs: each command a chunk, loaded by commands.ts's import().
    const meta = await bundleMeta('electron/cli.ts', true);
    const cli = chunkOf(meta, 'electron/cli.ts');
    const inspect = chunkOf(meta, 'electron/cli/inspectCommand.ts');
    const loaded = new Set([...staticClosure(meta, cli), ...staticClosure(meta, inspect)]);
    expect(loaded.has('electron/cli/inspectCommand.ts')).toBe(true);
    expect(loaded.has('shared/parseDocument.ts')).toBe(true);
    for (const heavy of ['electron/remote/agentConnection.ts', 'shared/api.ts', 'electron/engine/hashPool.ts', 'electron/engine/verify.ts'])
      expect(loaded.has(heavy), heavy).toBe(false);
    // zod's schemas describe an invalid document only: schemasOnDemand.cjs, required on first use.
    expect([...loaded].filter(isZod)).toEqual([]);
    expect(loaded.has('electron/engine/schemasOnDemandFromDisk.ts')).toBe(true);
    expect(loaded.has('shared/schemasOnDemand.ts')).toBe(false);
  }, 60_000);

  it('starts inspect and scan from a few files: what the commands share is one chunk (startupChunk.ts)', async () => {
    // Node 20 resolves, reads and links each ES module file on its own: 19 files were ~10 ms of a cold inspect's CPU.
    const meta = await bundleMeta('electron/cli.ts', true);
    const cli = chunkOf(meta, 'electron/cli.ts');
    for (const [command, most] of [
      ['electron/cli/inspectCommand.ts', 5],
      ['electron/cli/scanCommand.ts', 11],
    ] as const) {
      const files = new Set([...staticChunks(meta, cli), ...staticChunks(meta, chunkOf(meta, command))]);
      expect(files.size, command).toBeLessThanOrEqual(most);
      // Nor zod: a workspace that is a folder reads no workspace file, and its schema is on demand too.
      const sources = [...files].flatMap((output) => Object.keys(meta.outputs[output]!.inputs));
      expect(sources.filter(isZod), command).toEqual([]);
    }
  }, 60_000);

  it('starts each hash worker without zod', async () => {
    const meta = await bundleMeta('electron/engine/hashWorker.ts', false);
    const sources = Object.values(meta.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(sources).toContain('shared/parseDocument.ts');
    expect(sources.filter(isZod)).toEqual([]);
  }, 60_000);
});
