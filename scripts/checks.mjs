// `npm test`'s first step: the commands of `npm run typecheck` and `npm run lint`, two at a time. Each
// is one single-threaded process (three tsc projects, eslint, prettier), so on two cores two of them
// side by side take half the time of one after another. The commands are read from package.json's
// own scripts (split on `&&`), so they are written once; each one's output is printed whole when it
// ends, under its command, and every one runs to its end so that one run reports every problem.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The commands of the named package.json scripts, in order. */
export function checkCommands(scripts, names = ['typecheck', 'lint']) {
  return names.flatMap((name) => {
    const script = scripts[name];
    if (typeof script !== 'string') throw new Error(`package.json has no "${name}" script`);
    return script.split('&&').map((command) => command.trim());
  });
}

/** Runs the commands at most `jobs` at a time; resolves to the commands that failed, in the order given. */
export async function runChecks(commands, { jobs = 2, cwd = root, print = (text) => process.stdout.write(text) } = {}) {
  const failed = [];
  const queue = [...commands];
  const lane = async () => {
    for (let command = queue.shift(); command !== undefined; command = queue.shift()) {
      const started = Date.now();
      const { code, output } = await new Promise((resolve) => {
        // As `npm run` runs them: the package's own bin folder first on the PATH.
        const env = { ...process.env, PATH: `${path.join(cwd, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}` };
        const child = spawn(command, { cwd, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
        let text = '';
        child.stdout.on('data', (chunk) => (text += chunk));
        child.stderr.on('data', (chunk) => (text += chunk));
        child.on('error', (cause) => resolve({ code: 1, output: `${text}${cause.message}\n` }));
        child.on('close', (exitCode, signal) => resolve({ code: exitCode ?? (signal ? 1 : 0), output: text }));
      });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      print(`${code === 0 ? 'ok' : 'FAILED'} (${seconds} s): ${command}\n${output}`);
      if (code !== 0) failed.push(command);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, lane));
  // They end in any order; the report follows the order given.
  return commands.filter((command) => failed.includes(command));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { scripts } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
  // Type check and lint commands in turn, so the two longest (tsc of the node project, eslint) start first.
  const typecheck = checkCommands(scripts, ['typecheck']);
  const lint = checkCommands(scripts, ['lint']);
  const commands = Array.from({ length: Math.max(typecheck.length, lint.length) }, (_, i) => [typecheck[i], lint[i]]).flat();
  const failed = await runChecks(
    commands.filter((command) => command !== undefined),
    { jobs: Number(process.env.CHECK_JOBS ?? 2) },
  );
  if (failed.length > 0) {
    console.error(`checks: ${failed.length} failed: ${failed.join('; ')}`);
    process.exit(1);
  }
}
