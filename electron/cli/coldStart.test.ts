import { build, type Metafile } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { englishZodLocalesOnly, schemasOnDemandFromDisk } from '../../scripts/buildPlugins.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The source files a chunk loads before it runs: its own and those of every chunk it imports statically. */
function staticClosure(meta: Metafile, start: string): Set<string> {
  const sources = new Set<string>();
  const seen = new Set<string>();
  const visit = (output: string) => {
    if (seen.has(output)) return;
    seen.add(output);
    const chunk = meta.outputs[output]!;
    for (const input of Object.keys(chunk.inputs)) sources.add(input);
    for (const imported of chunk.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(start);
  return sources;
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
    const cli = Object.keys(meta.outputs).find((output) => meta.outputs[output]!.entryPoint === 'electron/cli.ts')!;
    const inspect = Object.keys(meta.outputs).find((output) =>
      Object.keys(meta.outputs[output]!.inputs).includes('electron/cli/inspectCommand.ts'),
    )!;
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

  it('starts each hash worker without zod', async () => {
    const meta = await bundleMeta('electron/engine/hashWorker.ts', false);
    const sources = Object.values(meta.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(sources).toContain('shared/parseDocument.ts');
    expect(sources.filter(isZod)).toEqual([]);
  }, 60_000);
});
