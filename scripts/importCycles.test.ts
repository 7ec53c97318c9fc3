import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { describeCycle, findCycles, importGraph, sourceFiles } from './importCycles';

const root = fileURLToPath(new URL('..', import.meta.url));
const temps: string[] = [];

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cycles-'));
  temps.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const cyclesIn = (dir: string) => findCycles(importGraph(sourceFiles([dir]))).map((cycle) => describeCycle(cycle, dir));

afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('import cycles', () => {
  it('has none in electron/, shared/ and renderer/, by value or by type', () => {
    const cycles = findCycles(importGraph(sourceFiles(['electron', 'shared', 'renderer'].map((dir) => path.join(root, dir)))));
    expect(cycles.map((cycle) => describeCycle(cycle, root))).toEqual([]);
  });

  it('finds a cycle made by a type-only import, through an index file and a folder', () => {
    const dir = tree({
      'a.ts': "import type { B } from './b';\nexport type A = { b?: B };\n",
      'b.ts': "import { c } from './lib';\nexport type B = typeof c;\n",
      'lib/index.ts': "export { c } from '../c.js';\n",
      'c.ts': "import type { A } from './a';\nexport const c: A | undefined = undefined;\n",
    });
    expect(cyclesIn(dir)).toEqual(['a.ts → b.ts → lib/index.ts → c.ts → a.ts']);
  });

  it('finds a cycle through a dynamic import and an inline import type', () => {
    const dir = tree({
      'one.ts': "export const load = () => import('./two');\n",
      'two.ts': "export type One = import('./one').Missing;\n",
    });
    expect(cyclesIn(dir)).toEqual(['one.ts → two.ts → one.ts']);
  });

  it('does not count an import named in a comment or a string, nor a package', () => {
    const dir = tree({
      'a.ts': "// import { b } from './b';\nexport const text = \"import { b } from './b'\";\nimport { z } from 'zod';\nexport { z };\n",
      'b.ts': "import { text } from './a';\nexport const b = text;\n",
    });
    expect(cyclesIn(dir)).toEqual([]);
  });
});
