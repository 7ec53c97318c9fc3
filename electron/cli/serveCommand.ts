// `distributor-inspector serve [WORKSPACE] [--port N] [--token-file FILE]`: the app in a browser, on
// 127.0.0.1 only, with a token in the address it prints (new each run, or kept in FILE so that a host
// started again on the same port takes back the tabs already open). Runs until Ctrl-C or SIGTERM.
// Never prints the token anywhere but that one address line on stdout.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import path from 'node:path';
import { ApiFailure } from '../../shared/apiError';
import { serve } from '../serve';
import { tokenFromFile } from '../server/tokenFile';
import { CliError, EXIT_OK, type Command } from './command';
import { makeStyle } from './style';
import { printable } from './terminalText';

export function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535)
    throw new CliError(`--port must be a whole number from 0 to 65535, not ${JSON.stringify(text)}`);
  return Number(text);
}

/** Resolves on the first SIGINT or SIGTERM. */
function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export const serveCommand: Command = {
  name: 'serve',
  usage: 'serve [WORKSPACE] [--port N] [--token-file FILE]',
  summary: 'Serve the app to a browser on 127.0.0.1 (a token in the printed address guards it)',
  options: { port: { type: 'string' }, 'token-file': { type: 'string' } },
  positionals: [0, 1],
  async run({ positionals, options }, io) {
    const style = makeStyle(io.isTerminal, io.env);
    const port = parsePort(options.port as string | undefined);
    const workspace = positionals[0] !== undefined ? path.resolve(io.cwd, positionals[0]) : undefined;
    let token: string | undefined;
    if (options['token-file'] !== undefined) {
      const read = await tokenFromFile(path.resolve(io.cwd, options['token-file'] as string));
      if (!read.ok) throw new CliError(`--token-file: ${printable(read.error)}`);
      token = read.value.token;
    }
    let serving;
    try {
      serving = await serve({ workspace, port, ...(token !== undefined ? { token } : {}) });
    } catch (cause) {
      if (cause instanceof ApiFailure) throw new CliError(printable(cause.message));
      const code = (cause as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new CliError(`port ${port} is in use on 127.0.0.1: choose another with --port, or --port 0 for any free one`);
      if (code === 'EACCES') throw new CliError(`port ${port} needs privileges on this system: choose one above 1024`);
      throw cause;
    }
    const stopped = untilStopped();
    io.stdout(
      [
        `Distributor Inspector is serving ${workspace ? style.bold(printable(workspace)) : 'no workspace yet (open one in the page)'}`,
        `Open: ${style.cyan(serving.host.url)}`,
        style.dim('Only this machine can connect (127.0.0.1); the token in the address is required. Press Ctrl-C to stop.'),
        '',
      ].join('\n'),
    );
    await stopped;
    await serving.close();
    io.stderr('Stopped.\n');
    return EXIT_OK;
  },
};
