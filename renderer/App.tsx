// The app: toolbar, sidebar list, detail pane, status bar. On start it asks the engine what it was
// opened on and scans that; with nothing open it shows the open form; a browser tab the host refuses
// (no token) is told how to get one.

import { useEffect, useState } from 'react';
import { getClient } from './api/client';
import { takeToken } from './api/httpBridge';
import { AccessRefused } from './components/AccessRefused';
import { ConnectionBanner } from './components/ConnectionBanner';
import { DetailPane, OpenWorkspaceForm, preloadLaterViews, RestoreHost } from './components/laterViews';
import { Sidebar } from './components/Sidebar';
import { listenForAppCommands } from './state/appCommands';
import { StatusBar } from './components/StatusBar';
import { Toolbar } from './components/Toolbar';
import { WorkspaceReloadProblem } from './components/WorkspaceReloadProblem';
import { followLiveRefresh, openWorkspace, reportError, watchConnection, watchHosts } from './state/actions';
import { afterFirstRows, FIRST_DESTINATIONS, holdSideCalls } from './state/listPages';
import { scanBesideList, showInPages } from './state/pagedList';
import { store, useAppState } from './state/store';
import { COMMAND_NAME } from '../shared/commandName';

/**
 * Starts the app; answers 'refused' when the browser host turned this tab away (no or a wrong token).
 * The scan of the workspace the engine has open is asked for beside appInfo, not after it: it runs
 * while appInfo's answer (its first destinations) travels and the list is built, and its rows wait
 * for the list (actions.scan); the rest of a large list follows a page at a time (listPages.ts),
 * once the first scan rows are in.
 * With no workspace open the scan is dropped, unseen.
 */
async function start(): Promise<'refused' | undefined> {
  const client = getClient();
  // appInfo first: the engine answers it before the scan's first results compete for its thread.
  // Only the first destinations: the first screen need not wait on a 100,000-destination answer (listPages.ts).
  const asked = client.invoke('appInfo', { firstDestinations: FIRST_DESTINATIONS });
  const scanning = scanBesideList();
  holdSideCalls(afterFirstRows(scanning.firstRows));
  // The views the first screen does not show are evaluated once the scan is done and the page is idle, not while rows stream in.
  void scanning.scanned.then(() => whenIdle(preloadLaterViews));
  const info = await asked;
  if (!info.ok) scanning.listShown(false);
  if (!info.ok && info.error.code === 'unauthorized') return 'refused';
  if (!info.ok) {
    reportError('Could not reach the engine', info.error);
    return undefined;
  }
  store.set({ transport: info.value.transport, version: info.value.version, command: info.value.command });
  watchConnection();
  followLiveRefresh();
  watchHosts();
  const first = info.value.workspace;
  if (first) await showInPages(first, info.value.destinationCount ?? first.destinations.length, scanning);
  else scanning.listShown(false);
  if (!info.value.workspace && info.value.initialWorkspace) await openWorkspace(info.value.initialWorkspace);
}

/** Runs `work` when the page is idle (within 2 s at the latest). */
function whenIdle(work: () => unknown): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => void work(), { timeout: 2_000 });
  else setTimeout(() => void work(), 0);
}

let started: Promise<'refused' | undefined> | undefined;

/**
 * Starts the app once per page, whoever asks first: main.tsx asks before React mounts, so the
 * engine is asked while the first render runs, not after it.
 */
export function startOnce(): Promise<'refused' | undefined> {
  started ??= start();
  return started;
}

export function App() {
  const workspace = useAppState((state) => state.workspace);
  const opening = useAppState((state) => state.opening);
  // Until the engine has said what it has open (appInfo), or failed to, the open form is not asked for: its chunk
  // (laterViews.tsx) would be fetched and evaluated while the first screen is still coming.
  const engineAnswered = useAppState((state) => state.transport !== undefined || state.lastError !== undefined);
  const command = useAppState((state) => state.command) ?? COMMAND_NAME;

  const [refused, setRefused] = useState<{ tokenGiven: boolean } | undefined>();

  useEffect(() => {
    void startOnce().then((outcome) => outcome === 'refused' && setRefused({ tokenGiven: takeToken() !== undefined }));
    return listenForAppCommands();
  }, []);

  if (refused) {
    // Nothing else would work: every call is refused the same way.
    return (
      <div className="app">
        <AccessRefused tokenGiven={refused.tokenGiven} />
      </div>
    );
  }

  return (
    <div className="app">
      <Toolbar />
      {/* One row for whatever must be noticed above the list; empty (and zero high) most of the time. */}
      <div className="banners">
        <ConnectionBanner />
        {workspace && <WorkspaceReloadProblem workspace={workspace} />}
      </div>
      {workspace ? (
        <div className="main">
          <Sidebar />
          <DetailPane />
        </div>
      ) : (
        <main className="welcome">
          <div className="panel">
            <h1>Open a workspace</h1>
            <p>
              Distributor Inspector lists every destination of a workspace, validates each <code>.distributor.json</code>, verifies outputs
              on disk, compares sources and replaces safely. Try the demo: <code>{command} demo</code> prints a path to open.
            </p>
            {opening || !engineAnswered ? <p role="status">Opening…</p> : <OpenWorkspaceForm autoFocus />}
          </div>
        </main>
      )}
      <StatusBar />
      <RestoreHost />
    </div>
  );
}
