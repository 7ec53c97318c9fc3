// How one output changed, in its own section: asks the engine for the content diff of a path
// (against its recorded bytes, or against what publishing the source would write), shows loading
// and errors, and draws the answer with ContentDiffView. Closed by its button or Esc.

import { useEffect, useRef, useState } from 'react';
import type { DiffAgainst } from '../../shared/contentDiff/contentDiffSchema';
import { useContentDiff } from '../hooks/api';
import { Callout } from './Callout';
import { ContentDiffView } from './ContentDiffView';
import { Icon } from './Icon';
import { reveal } from './RequestedResult';

export interface ContentDiffTarget {
  destination: string;
  path: string;
  against: DiffAgainst;
  /** Default: the destination's configured source. */
  source?: string;
}

export function ContentDiffPanel({ target, onClose }: { target: ContentDiffTarget; onClose: () => void }) {
  // Another source bundle the operator typed, to prove the expected bytes from (an older edition).
  const [chosenSource, setChosenSource] = useState<string>();
  const [typed, setTyped] = useState('');
  const source = chosenSource ?? target.source;
  const call = useContentDiff({
    destination: target.destination,
    path: target.path,
    against: target.against,
    ...(source !== undefined ? { source } : {}),
  });
  const heading = useRef<HTMLHeadingElement>(null);
  // Opens where the user looks: its heading scrolled to the top of the pane, with the focus.
  useEffect(() => reveal(heading.current), [target.path, target.against]);
  const state = call.state;
  const title = target.against === 'recorded' ? `How ${target.path} changed on disk` : `${target.path}: on disk and after a publish`;

  return (
    <section
      className="section content-diff-panel"
      aria-labelledby="content-diff-title"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <div className="content-diff-head">
        <h2 id="content-diff-title" ref={heading} tabIndex={-1}>
          {title}
        </h2>
        <button type="button" className="button small" onClick={onClose} aria-label="Close the diff">
          <Icon name="x" /> Close
        </button>
      </div>
      {(state.status === 'loading' || state.status === 'idle') && <p role="status">Reading both sides of {target.path}…</p>}
      {state.status === 'error' && (
        <Callout tone="danger" title={`Could not diff ${target.path}`} role="alert">
          <p>{state.error.message}</p>
        </Callout>
      )}
      {state.status === 'ok' && <ContentDiffView key={`${target.path}:${target.against}:${source ?? ''}`} diff={state.value} />}
      {state.status === 'ok' && target.against === 'recorded' && state.value.old.side.presence === 'unavailable' && (
        <form
          className="source-picker"
          onSubmit={(event) => {
            event.preventDefault();
            if (typed.trim() !== '') setChosenSource(typed.trim());
          }}
        >
          <div className="field">
            <label htmlFor="diff-source">Prove the expected bytes from another source bundle</label>
            <input
              id="diff-source"
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              placeholder="/path/to/the-bundle-it-was-published-from"
              spellCheck={false}
            />
            <span className="hint">Only bytes that hash to the recorded sha256 are ever used.</span>
          </div>
          <button type="submit" className="button" disabled={typed.trim() === ''}>
            Diff with this source
          </button>
        </form>
      )}
    </section>
  );
}
