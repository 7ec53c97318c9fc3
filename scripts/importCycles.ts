// Finds import cycles among TypeScript modules: every relative import, export-from, dynamic
// `import()` and type-only import (a cycle by type still ties two modules' designs together) is an
// edge, resolved the way the bundler resolves them. Read-only; used by importCycles.test.ts.
// Uses TypeScript's own scanner (a dev dependency already) so comments and strings never count.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx|mts)$/;
const CANDIDATE_SUFFIXES = ['', '.ts', '.tsx', '.mts', '/index.ts', '/index.tsx'];

/** Every .ts/.tsx file under the given folders (absolute paths), skipping node_modules. */
export function sourceFiles(folders: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  for (const folder of folders) walk(folder);
  return files.sort();
}

function isFile(candidate: string): boolean {
  try {
    return statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/** The file a relative specifier names, or undefined (a package, or a file outside the set). */
export function resolveImport(fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const base = path.resolve(path.dirname(fromFile), specifier);
  // `./a.js` in TypeScript source names `./a.ts`.
  const stems = /\.(m?js)$/.test(base) ? [base, base.replace(/\.(m?)js$/, '.$1ts')] : [base];
  for (const stem of stems) for (const suffix of CANDIDATE_SUFFIXES) if (isFile(stem + suffix)) return stem + suffix;
  return undefined;
}

/** Module → the modules it imports (only those in `files`). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const imported of info.importedFiles) {
      const target = resolveImport(file, imported.fileName);
      if (target !== undefined && known.has(target) && target !== file) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Each cycle once, as a list of modules where each imports the next and the last imports the first. */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components; each component of more than one module holds a cycle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  // Name one concrete loop per component: the shortest way back to its first module.
  return components.map((component) => shortestLoop(graph, new Set(component), [...component].sort()[0]!));
}

function shortestLoop(graph: ReadonlyMap<string, readonly string[]>, within: Set<string>, start: string): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (!within.has(next)) continue;
      if (next === start) {
        const loop = [node];
        while (loop[0] !== start) loop.unshift(previous.get(loop[0]!)!);
        return loop;
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}

/** `a.ts → b.ts → a.ts`, relative to root: what a failing test prints. */
export function describeCycle(cycle: readonly string[], root: string): string {
  return [...cycle, cycle[0]!].map((file) => path.relative(root, file).split(path.sep).join('/')).join(' → ');
}
