// The "Load older records" button under a page of the history: shown while the journal holds older
// records than those on screen; says when it is loading, and why it failed.

import type { useHistoryPages } from '../hooks/useHistoryPages';

export function LoadOlderHistory({ pages }: { pages: ReturnType<typeof useHistoryPages> }) {
  if (!pages.hasOlder && !pages.olderError) return null;
  return (
    <div className="button-row">
      {pages.hasOlder && (
        <button type="button" className="button" onClick={() => void pages.loadOlder()} disabled={pages.loadingOlder}>
          {pages.loadingOlder ? 'Loading older records…' : 'Load older records'}
        </button>
      )}
      {pages.olderError && (
        <p role="alert" className="muted">
          Could not read older records: {pages.olderError}
        </p>
      )}
    </div>
  );
}
