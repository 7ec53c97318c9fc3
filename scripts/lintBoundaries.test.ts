// The rooms' import boundaries, as eslint.config.js holds them: for each boundary, a crossed import
// fails and an allowed one passes. Lints small in-memory snippets through ESLint's own API with the
// project's config, at the paths the real files live at, so the rules are tried on the import strings
// the code writes ('../service/session', '../../electron/engine/scan', 'node:fs').

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, overrideConfigFile: path.join(ROOT, 'eslint.config.js') });
});

/** The boundary messages for one snippet linted as if it were `file`; a parse error fails the test. */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  expect(result!.messages.filter((message) => message.fatal)).toEqual([]);
  return result!.messages
    .filter((message) => message.ruleId === 'no-restricted-imports' || message.ruleId === 'no-restricted-syntax')
    .map((message) => message.message);
}

const importOf = (source: string) => `import { thing } from '${source}';\nexport const used = thing;\n`;

type Case = [file: string, source: string];

/** Each boundary: imports it refuses and imports it allows, from a file where the rule applies. */
const boundaries: { boundary: string; crossed: Case[]; allowed: Case[] }[] = [
  {
    boundary: 'renderer/ imports only shared/ and its own modules',
    crossed: [
      ['renderer/components/ActionsTab.tsx', '../../electron/service/session'],
      ['renderer/App.tsx', '../electron/engine/scan'],
      ['renderer/hooks/api.ts', '../../electron/testing/fixtures'],
      ['renderer/components/ActionsTab.tsx', 'node:fs'],
      ['renderer/components/ActionsTab.tsx', 'fs'],
      ['renderer/view/format.ts', 'path'],
      ['renderer/api/client.ts', 'electron'],
      ['renderer/api/client.ts', 'electron-log/renderer'],
      ['renderer/view/format.test.ts', 'node:path'],
      ['renderer/components/ActionsTab.tsx', '../testing/samplePlan'],
      ['renderer/App.tsx', './testing/samplePlan'],
    ],
    allowed: [
      ['renderer/components/ActionsTab.tsx', '../../shared/api'],
      ['renderer/App.tsx', '../shared/api'],
      ['renderer/components/ActionsTab.tsx', './Dialog'],
      ['renderer/components/ActionsTab.tsx', '../view/planView'],
      ['renderer/components/ActionsTab.tsx', 'react'],
      ['renderer/components/ActionsTab.test.tsx', '../testing/samplePlan'],
      ['renderer/testing/samplePlan.ts', '../../shared/plan'],
    ],
  },
  {
    boundary: 'shared/ imports no Node, no Electron and neither of the two sides',
    crossed: [
      ['shared/cleanPath.ts', 'node:path'],
      ['shared/cleanPath.ts', 'path'],
      ['shared/api.ts', 'node:crypto'],
      ['shared/api.ts', 'electron'],
      ['shared/api.ts', '../electron/engine/scan'],
      ['shared/api.ts', '../renderer/view/format'],
      ['shared/api.ts', 'react'],
      ['shared/cleanPath.test.ts', '../electron/engine/scan'],
      ['shared/cleanPath.test.ts', 'electron'],
    ],
    allowed: [
      ['shared/api.ts', 'zod'],
      ['shared/api.ts', './issues'],
      // Tests run in Node and may hold a rule to Node's own behaviour.
      ['shared/cleanPath.test.ts', 'node:path'],
    ],
  },
  {
    boundary: 'the engine imports no use case, service, server, shell or CLI',
    crossed: [
      ['electron/engine/scan.ts', '../service/session'],
      ['electron/engine/scan.ts', '../server/httpHost'],
      ['electron/engine/scan.ts', '../shell/settings'],
      ['electron/engine/scan.ts', '../cli/run'],
      ['electron/engine/scan.ts', '../operations/compareDestination'],
      ['electron/engine/scan.ts', '../replace/planReplace'],
      ['electron/engine/scan.ts', '../demo/demo'],
      ['electron/engine/scan.ts', '../../electron/service/session'],
      ['electron/engine/scan.ts', '../serve'],
      ['electron/engine/scan.ts', '../main'],
      ['electron/engine/scan.test.ts', '../service/session'],
    ],
    allowed: [
      ['electron/engine/scan.ts', '../../shared/api'],
      ['electron/engine/scan.ts', './hashPool'],
      ['electron/engine/scan.ts', 'node:fs'],
      ['electron/engine/scan.test.ts', '../testing/fixtures'],
    ],
  },
  {
    boundary: 'replace/ imports the engine and shared/ only',
    crossed: [
      ['electron/replace/applyPlan.ts', '../service/session'],
      ['electron/replace/applyPlan.ts', '../operations/applyReplace'],
      ['electron/replace/applyPlan.ts', '../cli/replaceCommand'],
      ['electron/replace/applyPlan.ts', '../demo/demo'],
    ],
    allowed: [
      ['electron/replace/applyPlan.ts', '../engine/inspectDestination'],
      ['electron/replace/applyPlan.ts', './fsOps'],
      ['electron/replace/applyPlan.ts', '../../shared/plan'],
    ],
  },
  {
    boundary: 'the use cases (operations/) know no adapter',
    crossed: [
      ['electron/operations/planReplace.ts', '../service/session'],
      ['electron/operations/planReplace.ts', '../server/httpHost'],
      ['electron/operations/planReplace.ts', '../shell/settings'],
      ['electron/operations/planReplace.ts', '../cli/run'],
    ],
    allowed: [
      ['electron/operations/planReplace.ts', '../replace/planReplace'],
      ['electron/operations/planReplace.ts', '../engine/inspectDestination'],
    ],
  },
  {
    boundary: 'the service knows no transport',
    crossed: [
      ['electron/service/session.ts', '../server/httpHost'],
      ['electron/service/session.ts', '../shell/settings'],
      ['electron/service/session.ts', '../cli/run'],
      ['electron/service/session.ts', '../../electron/server/httpHost'],
    ],
    allowed: [
      ['electron/service/session.ts', '../operations/planReplace'],
      ['electron/service/session.ts', '../engine/hashPool'],
      ['electron/service/session.ts', '../replace/applyPlan'],
      ['electron/service/session.ts', './jobRegistry'],
    ],
  },
  {
    boundary: 'watch/ imports shared/ only, and only the service wires it',
    crossed: [
      ['electron/watch/destinationWatcher.ts', '../engine/inspectDestination'],
      ['electron/watch/destinationWatcher.ts', '../service/session'],
      ['electron/engine/scan.ts', '../watch/destinationWatcher'],
      ['electron/server/httpHost.ts', '../watch/destinationWatcher'],
      ['electron/operations/reloadWorkspace.ts', '../watch/destinationWatcher'],
    ],
    allowed: [
      ['electron/watch/destinationWatcher.ts', '../../shared/staging'],
      ['electron/watch/destinationWatcher.ts', 'node:fs'],
      ['electron/service/session.ts', '../watch/destinationWatcher'],
    ],
  },
  {
    boundary: 'web/ is neutral ground and imports no room',
    crossed: [
      ['electron/web/csp.ts', '../engine/scan'],
      ['electron/web/csp.ts', '../service/session'],
      ['electron/web/staticFiles.ts', '../server/httpHost'],
      ['electron/web/staticFiles.ts', '../shell/settings'],
    ],
    allowed: [
      ['electron/web/staticFiles.ts', 'node:fs'],
      ['electron/web/staticFiles.ts', './csp'],
    ],
  },
  {
    boundary: 'the browser host does not import the desktop shell',
    crossed: [
      ['electron/server/httpHost.ts', '../shell/settings'],
      ['electron/server/httpHost.ts', '../cli/run'],
    ],
    allowed: [
      ['electron/server/httpHost.ts', '../service/session'],
      ['electron/server/httpHost.ts', '../web/csp'],
    ],
  },
  {
    boundary: 'the desktop shell does not import the browser host',
    crossed: [
      ['electron/shell/desktopHandlers.ts', '../server/httpHost'],
      ['electron/shell/desktopHandlers.ts', '../cli/run'],
    ],
    allowed: [
      ['electron/shell/desktopHandlers.ts', '../service/session'],
      ['electron/shell/desktopHandlers.ts', '../web/staticFiles'],
    ],
  },
  {
    boundary: 'the CLI does not import the desktop shell',
    crossed: [['electron/cli/serveCommand.ts', '../shell/settings']],
    allowed: [
      ['electron/cli/serveCommand.ts', '../serve'],
      ['electron/cli/serveCommand.ts', '../server/httpHost'],
      ['electron/cli/demoCommand.ts', '../demo/demo'],
    ],
  },
  {
    boundary: 'the CLI drives the service through one door: it imports no engine room',
    crossed: [
      ['electron/cli/replaceCommand.ts', '../replace/applyPlan'],
      ['electron/cli/replaceCommand.ts', '../operations/applyReplacePlan'],
      ['electron/cli/historyCommand.ts', '../history/journal'],
      ['electron/cli/backupsCommand.ts', '../backup/backupStore'],
      ['electron/cli/compareCommand.ts', '../engine/inspectDestination'],
      ['electron/cli/door.ts', '../../electron/engine/workspace'],
      // inspect and scan too, whose cold start goes through the lean service entries: no file is exempt.
      ['electron/cli/inspectCommand.ts', '../engine/inspectDestination'],
      ['electron/cli/renderInspection.ts', '../engine/inspectDestination'],
      ['electron/cli/verifyLoader.ts', '../engine/verify'],
      ['electron/cli/syncLoader.ts', '../engine/sourceManifests'],
      ['electron/cli/scanCommand.ts', '../engine/scan'],
      ['electron/cli/startupChunk.ts', '../engine/inspectDestination'],
    ],
    allowed: [
      ['electron/cli/door.ts', '../service/session'],
      ['electron/cli/door.ts', '../../shared/apiClient'],
      ['electron/cli/inspectCommand.ts', '../service/destinationRead'],
      ['electron/cli/scanCommand.ts', '../service/workspaceScan'],
      ['electron/cli/oneDoor.test.ts', '../history/journalPath'],
    ],
  },
  {
    boundary: "the CLI opens no agent connection of its own: the Session reaches hosts through hostDoor.ts's one connector",
    crossed: [
      ['electron/cli/scanHosts.ts', '../remote/agentConnection'],
      ['electron/cli/scanCommand.ts', '../remote/hostConnector'],
      ['electron/cli/door.ts', '../../electron/remote/agentConnection'],
      ['electron/cli/scanHosts.ts', './agentClient'],
      ['electron/cli/inspectCommand.ts', './agentClient'],
      // The connector too loads the connection through agentClient.ts, the split point of the cold start.
      ['electron/cli/hostDoor.ts', '../remote/agentConnection'],
      ['electron/cli/remoteCommands.test.ts', '../remote/agentConnection'],
    ],
    allowed: [
      ['electron/cli/hostDoor.ts', './agentClient'],
      ['electron/cli/agentClient.ts', '../remote/agentConnection'],
      ['electron/cli/scanHosts.ts', './hostDoor'],
      ['electron/cli/agentCommand.ts', '../remote/agentServer'],
      ['electron/cli/remoteCommands.test.ts', '../testing/sshHarness'],
      ['electron/remote/agentOverSsh.test.ts', './agentConnection'],
    ],
  },
  {
    boundary: 'the remote transport imports the service, never the CLI, a shell or a use case; only the CLI imports it',
    crossed: [
      ['electron/remote/agentServer.ts', '../cli/run'],
      ['electron/remote/agentServer.ts', '../server/httpHost'],
      ['electron/remote/agentConnection.ts', '../operations/compareDestination'],
      ['electron/remote/agentConnection.ts', '../testing/sshHarness'],
      ['electron/service/session.ts', '../remote/agentServer'],
      ['electron/server/httpHost.ts', '../remote/agentConnection'],
      ['electron/engine/scan.ts', '../remote/agentConnection'],
    ],
    allowed: [
      ['electron/remote/agentServer.ts', '../service/session'],
      ['electron/remote/agentServer.ts', '../engine/appVersion'],
      ['electron/cli/remoteCommands.test.ts', '../testing/sshHarness'],
      ['electron/cli/agentCommand.ts', '../remote/agentServer'],
    ],
  },
  {
    boundary: 'electron/testing is for tests, e2e and the bench only',
    crossed: [
      ['electron/service/session.ts', '../testing/sessionFixtures'],
      ['electron/cli/run.ts', '../testing/fixtures'],
      ['electron/main.ts', './testing/fixtures'],
      ['electron/serve.ts', './testing/sessionFixtures'],
    ],
    allowed: [
      ['electron/service/session.test.ts', '../testing/sessionFixtures'],
      ['electron/cli/run.test.ts', '../testing/fixtures'],
      ['e2e/fixtures.ts', '../electron/testing/sessionFixtures'],
      ['bench/run.ts', '../electron/testing/fixtures'],
    ],
  },
];

describe('import boundaries', () => {
  for (const { boundary, crossed, allowed } of boundaries) {
    describe(boundary, () => {
      it.each(crossed)('refuses, in %s, an import of "%s"', async (file, source) => {
        expect(await boundaryErrors(file, importOf(source))).toHaveLength(1);
      });
      it.each(allowed)('allows, in %s, an import of "%s"', async (file, source) => {
        expect(await boundaryErrors(file, importOf(source))).toEqual([]);
      });
    });
  }

  it('refuses a dynamic import() in the app, which the boundary rules could not read, and allows one in a test', async () => {
    const dynamic = "export const load = () => import('../service/session');\n";
    expect(await boundaryErrors('electron/engine/scan.ts', dynamic)).toHaveLength(1);
    expect(await boundaryErrors('renderer/App.tsx', "export const load = () => import('./components/Dialog');\n")).toHaveLength(1);
    expect(await boundaryErrors('electron/engine/scan.test.ts', dynamic.replace('service/session', 'testing/fixtures'))).toEqual([]);
    expect(await boundaryErrors('electron/cli/commands.ts', "export const load = () => import('./scanCommand');\n")).toEqual([]);
    expect(await boundaryErrors('electron/cli/commands.ts', "export const load = () => import('../shell/menu');\n")).toHaveLength(1);
    expect(await boundaryErrors('e2e/fixtures.ts', "export const load = () => import('../electron/demo/demo');\n")).toEqual([]);
  });

  it('refuses a lazy import() of the agent connection in a command, and allows it in the one connector', async () => {
    const lazy = "export const load = () => import('./agentClient');\n";
    expect(await boundaryErrors('electron/cli/scanHosts.ts', lazy)).toHaveLength(1);
    expect(await boundaryErrors('electron/cli/scanCommand.ts', lazy)).toHaveLength(1);
    expect(await boundaryErrors('electron/cli/hostDoor.ts', lazy)).toEqual([]);
    expect(await boundaryErrors('electron/cli/scanCommand.ts', "export const load = () => import('./scanHosts');\n")).toEqual([]);
  });

  it('refuses a re-export and a type-only import across a boundary as it refuses an import', async () => {
    expect(await boundaryErrors('electron/engine/scan.ts', "export { Session } from '../service/session';\n")).toHaveLength(1);
    expect(await boundaryErrors('electron/engine/scan.ts', "export * from '../service/session';\n")).toHaveLength(1);
    expect(
      await boundaryErrors('electron/engine/scan.ts', "import type { Session } from '../service/session';\nexport type S = Session;\n"),
    ).toHaveLength(1);
  });
});

describe("Electron's IPC objects", () => {
  const ipcMain = "import { ipcMain } from 'electron';\nexport const x = ipcMain;\n";
  const contextBridge = "import { contextBridge } from 'electron';\nexport const x = contextBridge;\n";
  const ipcRenderer = "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n";

  it('lets electron/ipc.ts alone import ipcMain', async () => {
    expect(await boundaryErrors('electron/ipc.ts', ipcMain)).toEqual([]);
    expect(await boundaryErrors('electron/main.ts', ipcMain)).toHaveLength(1);
    expect(await boundaryErrors('electron/shell/ipcBinding.ts', ipcMain)).toHaveLength(1);
    expect(await boundaryErrors('electron/preload.ts', ipcMain)).toHaveLength(1);
    expect(await boundaryErrors('electron/service/session.ts', ipcMain)).toHaveLength(1);
  });

  it('lets electron/preload.ts alone import contextBridge and ipcRenderer', async () => {
    expect(await boundaryErrors('electron/preload.ts', contextBridge)).toEqual([]);
    expect(await boundaryErrors('electron/preload.ts', ipcRenderer)).toEqual([]);
    for (const file of ['electron/ipc.ts', 'electron/main.ts', 'electron/shell/appMenu.ts', 'electron/cli/run.ts']) {
      expect(await boundaryErrors(file, contextBridge), file).toHaveLength(1);
      expect(await boundaryErrors(file, ipcRenderer), file).toHaveLength(1);
    }
  });

  it('refuses a default or namespace import of electron, which would hide which object a file uses', async () => {
    expect(await boundaryErrors('electron/main.ts', "import electron from 'electron';\nexport const x = electron;\n")).toHaveLength(1);
    expect(await boundaryErrors('electron/main.ts', "import * as electron from 'electron';\nexport const x = electron;\n")).toHaveLength(1);
  });

  it("allows the rest of Electron's API and its types where the shell needs them", async () => {
    expect(
      await boundaryErrors('electron/main.ts', "import { app, BrowserWindow } from 'electron';\nexport const x = [app, BrowserWindow];\n"),
    ).toEqual([]);
    expect(
      await boundaryErrors('electron/shell/ipcBinding.ts', "import type { IpcMain } from 'electron';\nexport type X = IpcMain;\n"),
    ).toEqual([]);
  });
});

/** Every file of the tree that lint reads, as the config sees it (ignored folders left out). */
async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await fs.readdir(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await sourceFiles(relative)));
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry.name)) files.push(relative);
  }
  return files;
}

describe('the import strings of the tree', () => {
  it('are written in the normalized form the boundary rules read', async () => {
    const odd: string[] = [];
    for (const dir of ['shared', 'renderer', 'electron', 'e2e', 'bench', 'scripts']) {
      for (const file of await sourceFiles(dir)) {
        const text = await fs.readFile(path.join(ROOT, file), 'utf8');
        for (const [, source] of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/g)) {
          if (!source!.startsWith('.')) continue;
          const normalized = path.posix.normalize(source!);
          const expected = normalized.startsWith('../') ? normalized : `./${normalized}`;
          if (source !== expected) odd.push(`${file}: '${source}' (write '${expected}')`);
        }
      }
    }
    expect(odd).toEqual([]);
  });
});
