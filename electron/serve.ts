// The browser host as one call: a session on the given workspace and the HTTP host in front of it.
// Thin: the rules live in electron/server (checks) and electron/service (the engine behind the API).
// Must never bind anything but 127.0.0.1 (startHost enforces it).

import { demoControl } from './demo/demoControl';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session } from './service/session';
import { userPreferencesFile } from './service/preferencesFile';
import { fail } from '../shared/apiError';
import { startHost, type Host } from './server/httpHost';
import { sshHostConnector } from './remote/hostConnector';

export interface ServeOptions {
  workspace?: string;
  port?: number;
  /** The token to require (`--token-file`); default a new random one. */
  token?: string;
  rendererDir?: string;
}

export interface Serving {
  host: Host;
  session: Session;
  close(): Promise<void>;
}

/**
 * dist/renderer beside the running bundle (dist/cli.js), else the repository's dist/renderer when run
 * from sources (tests, tsx).
 */
export function defaultRendererDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, 'renderer'), path.resolve(here, '..', 'dist', 'renderer')];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html'))) ?? candidates[0]!;
}

/** Opens the workspace first, so a bad one is reported before anything listens. */
export async function serve(options: ServeOptions = {}): Promise<Serving> {
  const session = new Session({
    transport: 'http',
    initialWorkspace: options.workspace,
    demo: demoControl,
    // The workspace's hosts through the system ssh and their agents; their logs go to stderr.
    connectHost: sshHostConnector({ onNotice: (line, host) => process.stderr.write(`distributor-inspector: ${host.name}: ${line}\n`) }),
    preferencesFile: userPreferencesFile(),
  });
  const opened = await session.initialOpen;
  if (opened && !opened.ok) {
    await session.close();
    throw fail(opened.error.code, opened.error.message, opened.error.details);
  }
  const host = await startHost({
    session,
    rendererDir: options.rendererDir ?? defaultRendererDir(),
    port: options.port ?? 0,
    ...(options.token !== undefined ? { token: options.token } : {}),
  });
  return {
    host,
    session,
    close: async () => {
      await host.close();
      await session.close();
    },
  };
}
