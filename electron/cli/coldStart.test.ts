import { build, type Metafile } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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

describe('the cold start of a command', () => {
  it('loads neither the ssh client, the API schemas nor the hash pool for a plain inspect', async () => {
    // The same split as scripts/build.mjs: each command a chunk, loaded by commands.ts's import().
    const result = await build({
      absWorkingDir: root,
      entryPoints: ['electron/cli.ts'],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      outdir: 'dist-test-unused',
      write: false,
      metafile: true,
      logLevel: 'silent',
      external: ['electron'],
    });
    const meta = result.metafile;
    const cli = Object.keys(meta.outputs).find((output) => meta.outputs[output]!.entryPoint === 'electron/cli.ts')!;
    const inspect = Object.keys(meta.outputs).find((output) =>
      Object.keys(meta.outputs[output]!.inputs).includes('electron/cli/inspectCommand.ts'),
    )!;
    const loaded = new Set([...staticClosure(meta, cli), ...staticClosure(meta, inspect)]);
    expect(loaded.has('electron/cli/inspectCommand.ts')).toBe(true);
    expect(loaded.has('shared/parseDocument.ts')).toBe(true);
    for (const heavy of ['electron/remote/agentConnection.ts', 'shared/api.ts', 'electron/engine/hashPool.ts', 'electron/engine/verify.ts'])
      expect(loaded.has(heavy), heavy).toBe(false);
  }, 60_000);
});
