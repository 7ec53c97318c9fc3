// The views the first screen does not show, loaded as chunks of their own when first wanted: the
// detail pane with its tabs, the dialogs, the open form. They parse the API's documents (states,
// plans, journals) with shared/'s zod schemas, and evaluating zod and those schemas in the bundle's
// first task cost the page tens of ms of CPU before the list could show a row. `preloadLaterViews`
// fetches them once the list's first rows are in, so a click seldom waits. Each view keeps its own
// module and props; this file only defers them: a view that is not open is not rendered, so its
// chunk is not asked for before it is wanted.

import { Component, lazy, Suspense, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { sideCallsGo } from '../state/listPages';
import { useAppState } from '../state/store';
import { NoDestinationSelected } from './NoDestinationSelected';

const loadDetailPane = () => import('./DetailPane');
const loadDialogs = () => import('./laterDialogs');

/**
 * Where a view whose chunk could not be fetched (the host gone mid-fetch) stands: said in its place,
 * never a blank page (React unmounts the whole tree for an error no boundary catches), and asked for
 * again once the connection is back, or on Try again.
 */
function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const since = useAppState((state) => (state.connection?.status === 'connected' ? state.connection.since : undefined));
  const failedSince = useRef(since);
  useEffect(() => {
    if (since !== undefined && since !== failedSince.current) onRetry();
  }, [since, onRetry]);
  return (
    <div className="placeholder" role="alert" data-testid="view-load-failed">
      <p>This view could not be loaded from the inspector. It is asked for again when the inspector answers.</p>
      <button type="button" className="button small" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

class ChunkBoundary extends Component<{ children: ReactNode; onRetry: () => void }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  private readonly retry = () => {
    this.props.onRetry();
    this.setState({ failed: false });
  };
  override render() {
    return this.state.failed ? <LoadFailed onRetry={this.retry} /> : this.props.children;
  }
}

/**
 * A named export of a chunk as a component that renders `fallback` while the chunk loads: the chunk
 * is asked for when the component is first rendered. React.lazy keeps a failed load for good, so a
 * retry makes a new one.
 */
export function later<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>, fallback: ReactNode = null) {
  const make = () => lazy(async () => ({ default: pick(await load()) }));
  const current = { Lazy: make() };
  function Later(props: P) {
    const [, setTries] = useState(0);
    const retry = () => {
      current.Lazy = make();
      setTries((tries) => tries + 1);
    };
    const Lazy = current.Lazy;
    return (
      <ChunkBoundary onRetry={retry}>
        <Suspense fallback={fallback}>
          <Lazy {...props} />
        </Suspense>
      </ChunkBoundary>
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
