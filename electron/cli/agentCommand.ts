// `distributor-inspector agent --stdio`: the agent a client starts over ssh (issue 15). Speaks the API
// as JSON lines on stdin and stdout (electron/remote/agentServer.ts) until stdin ends. stdout carries
// protocol lines only; every log line goes to stderr. Opens no listener of any kind.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import { guardOutput } from './outputStream';
import { serveAgent } from '../remote/agentServer';
import { Session } from '../service/session';
import { CliError, EXIT_OK, type Command } from './command';

export const agentCommand: Command = {
  name: 'agent',
  usage: 'agent --stdio',
  summary: 'Serve the API as JSON lines on stdin/stdout, for a client that connects over ssh (ssh://host/path)',
  options: { stdio: { type: 'boolean' } },
  positionals: [0, 0],
  async run({ options }, io) {
    if (options.stdio !== true) throw new CliError('the agent speaks on stdin and stdout only: run it as `agent --stdio`');
    const stdout = guardOutput(process.stdout, (message) => io.stderr(`distributor-inspector agent: ${message}\n`));
    await serveAgent({
      session: new Session({ transport: 'agent' }),
      input: process.stdin,
      write: stdout.write,
      log: (line) => io.stderr(`distributor-inspector ${line}\n`),
    });
    return EXIT_OK;
  },
};
