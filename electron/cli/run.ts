// Parses argv, dispatches to a command, and turns every failure into a line and an exit code.
// No stack trace reaches a user unless --debug is given. Every text it or a command writes (stdout,
// stderr, the confirmation prompt) passes toTerminal: no control character from a state file, a
// path or an argument reaches the terminal. A command's --json document on stdout is left as is.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import { parseArgs } from 'node:util';
import { CliError, EXIT_INPUT, type CliIo, type Command } from './command';
import { APP_VERSION } from '../../shared/appVersion';
import { commands } from './commands';
import { connectTimeoutMs } from './hostPaths';
import { printable, toTerminal } from './terminalText';

/** The io every command sees: text escaped for the terminal; stdout raw once it carries a JSON document. */
function terminalIo(io: CliIo): { io: CliIo; printJsonRaw: () => void } {
  let stdoutIsJson = false;
  const safe: CliIo = {
    isTerminal: io.isTerminal,
    env: io.env,
    cwd: io.cwd,
    stdout: (text) => io.stdout(stdoutIsJson ? text : toTerminal(text)),
    stderr: (text) => io.stderr(toTerminal(text)),
    // A getter, as the io may have one: whether there is a terminal to ask is looked up by a command that asks.
    get ask() {
      const ask = io.ask;
      return ask ? (question: string) => ask(toTerminal(question)) : undefined;
    },
  };
  return { io: safe, printJsonRaw: () => void (stdoutIsJson = true) };
}

async function usageText(): Promise<string> {
  const lines = ['Usage: distributor-inspector <command> [options]', '', 'Commands:'];
  for (const command of await Promise.all(commands.map((entry) => entry.load())))
    lines.push(`  ${command.usage.padEnd(72)} ${command.summary}`);
  lines.push(
    '',
    'Options for every command: --debug (show stack traces), --help',
    'Exit codes: 0 done and healthy, 1 findings (invalid, drifted, conflict, refused), 2 usage or input errors.',
  );
  return lines.join('\n') + '\n';
}

export async function runCli(argv: string[], rawIo: CliIo): Promise<number> {
  const { io, printJsonRaw } = terminalIo(rawIo);
  const [name, ...rest] = argv;
  const debug = rest.includes('--debug');
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(await usageText());
    return name === undefined ? EXIT_INPUT : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${APP_VERSION}\n`);
    return 0;
  }
  const entry = commands.find((candidate) => candidate.name === name);
  if (!entry) {
    io.stderr(`distributor-inspector: unknown command "${printable(name)}"\n\n${await usageText()}`);
    return EXIT_INPUT;
  }
  const command = await entry.load();
  try {
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout(`Usage: distributor-inspector ${command.usage}\n${command.summary}\n`);
      return 0;
    }
    const parsed = parseCommandArgs(command, rest);
    if (parsed.options.json === true) printJsonRaw();
    return await command.run(parsed, io);
  } catch (cause) {
    if (cause instanceof CliError) {
      // Its values were escaped where it was made; its own line breaks (a usage line) are kept.
      io.stderr(`distributor-inspector ${command.name}: ${cause.message}\n`);
      return cause.exitCode;
    }
    io.stderr(`distributor-inspector ${command.name}: unexpected error: ${printable((cause as Error)?.message ?? String(cause))}\n`);
    if (debug) io.stderr(`${(cause as Error)?.stack ?? ''}\n`);
    else io.stderr('Run again with --debug to see the details.\n');
    return EXIT_INPUT;
  }
}

function parseCommandArgs(command: Command, rest: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, debug: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (cause) {
    throw new CliError(`${printable((cause as Error).message)}\nUsage: distributor-inspector ${command.usage}`, EXIT_INPUT);
  }
  const [min, max] = command.positionals;
  if (parsed.positionals.length < min || parsed.positionals.length > max) {
    throw new CliError(
      `expected ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? '' : 's'}, got ${parsed.positionals.length}\nUsage: distributor-inspector ${command.usage}`,
      EXIT_INPUT,
    );
  }
  // A repeatable option's values go apart, so every other option stays one value.
  const options: Record<string, string | boolean | undefined> = {};
  const lists: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    if (Array.isArray(value)) lists[name] = value as string[];
    else options[name] = value as string | boolean | undefined;
  }
  // A bad deadline is refused by every command that takes it, before any work: also where no path is on a host.
  connectTimeoutMs(options);
  return { positionals: parsed.positionals, options, lists };
}
