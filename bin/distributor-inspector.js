#!/usr/bin/env node
// Entry point of the `distributor-inspector` command. Runs the built CLI (npm install builds it).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(built)) {
  process.stderr.write('distributor-inspector: not built yet. Run `npm install` (or `npm run build`) in the repository first.\n');
  process.exit(2);
}
await import(built);
