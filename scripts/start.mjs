// `npm start`: builds when the sources are newer than dist/, writes the demo workspace (or reopens the
// one an earlier start wrote, as the user left it: `demo --reset` makes it afresh), and opens the
// desktop app on it. Where there is no Electron binary (or no display) it says so in one line and
// serves the same app to a browser instead: prints the address with "open this address", and opens it
// in the user's browser when a person is at a display (never in CI); it runs until Ctrl-C.
// Never downloads anything: the `electron` package is not loaded, only its dist folder looked at.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary, hasDisplay } from './electronBinary.mjs';
import { addressIn, addressLine, fallbackReason, openInBrowser } from './openBrowser.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (...parts) => path.join(root, ...parts);

function newestMtimeMs(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtimeMs(path.join(target, entry.name)));
  }
  return newest;
}

function needsBuild() {
  const outputs = [
    'dist/cli.js',
    'dist/main.js',
    'dist/preload.cjs',
    ...(existsSync(at('renderer', 'index.html')) ? ['dist/renderer/index.html'] : []),
  ];
  if (outputs.some((file) => !existsSync(at(file)))) return true;
  const oldestOutput = Math.min(...outputs.map((file) => statSync(at(file)).mtimeMs));
  const newestSource = Math.max(
    ...['shared', 'electron', 'renderer', 'vite.config.ts', 'package.json'].map((part) => newestMtimeMs(at(part))),
  );
  return newestSource > oldestOutput;
}

if (needsBuild()) {
  console.log('Building…');
  const built = spawnSync(process.execPath, [at('scripts', 'build.mjs')], { stdio: 'inherit', cwd: root });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const cli = at('bin', 'distributor-inspector.js');
// No DIR: the CLI picks the user's private demo folder (their cache folder, mode 0700), never a fixed
// name in the shared temp folder, and says where it is.
const demo = spawnSync(process.execPath, [cli, 'demo', '--json'], { cwd: root, encoding: 'utf8' });
if (demo.status !== 0) {
  process.stderr.write(demo.stderr || demo.stdout);
  process.exit(demo.status ?? 1);
}
const { dir: demoDir, workspaceFile, reopened, command } = JSON.parse(demo.stdout);
if (reopened) console.log(`The demo workspace is as you left it; \`${command} demo --reset\` makes it afresh.`);

/** Runs a child in the foreground; Ctrl-C reaches it through the terminal, and we exit when it does. */
function foreground(command, args, stdio = 'inherit') {
  const child = spawn(command, args, { cwd: root, stdio });
  // The terminal sends SIGINT to the whole group: let the child stop cleanly, then leave with its code.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
  return child;
}

const electron = findElectronBinary(root);
if (electron.ok && hasDisplay()) {
  console.log(`Opening Distributor Inspector on the demo workspace (${demoDir}).`);
  foreground(electron.path, ['.', `--workspace=${workspaceFile}`]);
} else {
  const why = fallbackReason(electron, hasDisplay());
  console.log(`Distributor Inspector in your browser (${why}), on the demo workspace (${demoDir}).`);
  serveAndOpen();
}

/** Runs `serve`, passing its output through; its address line becomes ours, opened in a browser once. */
function serveAndOpen() {
  const child = foreground(process.execPath, [cli, 'serve', workspaceFile], ['inherit', 'pipe', 'inherit']);
  let pending = '';
  let announced = false;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const url = announced ? undefined : addressIn(line);
      if (url === undefined) {
        process.stdout.write(`${line}\n`);
        continue;
      }
      announced = true;
      process.stdout.write(`${addressLine(url, openInBrowser(url))}\n`);
    }
  });
}
