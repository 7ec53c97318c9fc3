// The views the first screen does not show, loaded as chunks of their own when first wanted: the
// detail pane with its tabs, the dialogs, the open form. They parse the API's documents (states,
// plans, journals) with shared/'s zod schemas, and evaluating zod and those schemas in the bundle's
// first task cost the page tens of ms of CPU before the list could show a row. `preloadLaterViews`
// fetches them once the list's first rows are in, so a click seldom waits. Each view keeps its own
// module and props; this file only defers them: a view that is not open is not rendered, so its
// chunk is not asked for before it is wanted.

import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { sideCallsGo } from '../state/listPages';
import { useAppState } from '../state/store';
import { NoDestinationSelected } from './NoDestinationSelected';

const loadDetailPane = () => import('./DetailPane');
const loadDialogs = () => import('./laterDialogs');

/**
 * A named export of a chunk as a component that renders `fallback` while the chunk loads: the chunk
 * is asked for when the component is first rendered.
 */
function later<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>, fallback: ReactNode = null) {
  const Lazy = lazy(async () => ({ default: pick(await load()) }));
  function Later(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return Later;
}

let preloading: Promise<unknown> | undefined;

/** Starts fetching and evaluating the later views' chunks, once; a failure is retried by the view that needs them. */
export function preloadLaterViews(): Promise<unknown> {
  preloading ??= Promise.all([loadDetailPane(), loadDialogs()]).catch(() => (preloading = undefined));
  return preloading;
}

/** The detail pane's place while its chunk waits for the start's first rows, or loads. */
function DetailLoading() {
  return (
    <main className="detail" aria-busy="true">
      <div className="placeholder">
        <p role="status">Loading the destination…</p>
      </div>
    </main>
  );
}

const DetailPaneLater = later(loadDetailPane, (module) => module.DetailPane, <DetailLoading />);
const RestoreHostLater = later(loadDialogs, (module) => module.RestoreHost);
export const OpenWorkspaceForm = later(loadDialogs, (module) => module.OpenWorkspaceForm);
export const OpenWorkspaceDialog = later(loadDialogs, (module) => module.OpenWorkspaceDialog);
export const HistoryDialog = later(loadDialogs, (module) => module.HistoryDialog);
export const ResetDemoDialog = later(loadDialogs, (module) => module.ResetDemoDialog);

/**
 * The detail pane, once a destination is selected; until then what to do to see one. The list
 * selects its first row on its own as it is shown, so at the start the pane (its chunk, and its
 * inspectDestination call to the host's one thread) waits for the scan's first rows (sideCallsGo).
 */
export function DetailPane() {
  const wanted = useAppState((state) => state.selectedId !== undefined || state.selectedIds.size > 0);
  const [mayLoad, setMayLoad] = useState(false);
  useEffect(() => {
    let mounted = true;
    void sideCallsGo().then(() => mounted && setMayLoad(true));
    return () => void (mounted = false);
  }, []);
  if (!wanted) return <NoDestinationSelected />;
  if (!mayLoad) return <DetailLoading />;
  return <DetailPaneLater />;
}

/** The one restore dialog, while the store holds a restore request. */
export function RestoreHost() {
  const asked = useAppState((state) => state.restoreRequest !== undefined);
  if (!asked) return null;
  return <RestoreHostLater />;
}
