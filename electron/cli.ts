// The `distributor-inspector` command line: a thin adapter from process argv/stdio to runCli.
import { guardOutput } from './cli/outputStream';
import { runCli } from './cli/run';
import { askOnTerminal } from './cli/terminalQuestion';

async function main(): Promise<void> {
  const isTerminal = Boolean(process.stdout.isTTY);
  // A reader that goes away (`| head -1`) ends the output, quietly; never the command.
  const stderr = guardOutput(() => process.stderr);
  const stdout = guardOutput(process.stdout, (message) => stderr.write(`distributor-inspector: ${message}\n`));
  const exitCode = await runCli(process.argv.slice(2), {
    stdout: stdout.write,
    stderr: stderr.write,
    isTerminal,
    // Looked at only by a command that may ask: opening stdin to see whether it is a terminal is ~1 ms of every start.
    get ask() {
      return process.stdin.isTTY ? askOnTerminal : undefined;
    },
    env: process.env,
    cwd: process.cwd(),
  });
  // Let piped stdout drain before the exit code is set; never cut a JSON document short.
  process.exitCode = exitCode;
}

void main();
