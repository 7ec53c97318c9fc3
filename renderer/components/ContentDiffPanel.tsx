// How one output changed, in its own section: asks the engine for the content diff of a path
// (against its recorded bytes, or against what publishing the source would write), shows loading
// and errors, and draws the answer with ContentDiffView. Closed by its button or Esc. A review is a
// walk with the keyboard: F8/F7 (or Alt+↓/↑) go to the next or previous change, Shift+F8/F7 to the
// next or previous file of the list it was opened from (the drifted outputs).

import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { DiffAgainst } from '../../shared/contentDiff/contentDiffSchema';
import { useContentDiff } from '../hooks/api';
import { Callout } from './Callout';
import { ContentDiffView, type DiffNavigator } from './ContentDiffView';
import { Icon } from './Icon';
import { reveal } from './RequestedResult';
import { stepPath } from '../view/diffNavigation';

export interface ContentDiffTarget {
  destination: string;
  path: string;
  against: DiffAgainst;
  /** Default: the destination's configured source. */
  source?: string;
  /** The heading, when the default does not say what is shown (an extra file). */
  title?: string;
}

/** The files a review walks through (Shift+F8/F7), and how to show another. */
export interface DiffFileWalk {
  /** What the files are, for the buttons ("drifted file"). */
  noun: string;
  paths: readonly string[];
  show: (path: string) => void;
}

export function ContentDiffPanel({ target, onClose, files }: { target: ContentDiffTarget; onClose: () => void; files?: DiffFileWalk }) {
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
  const title =
    target.title ?? (target.against === 'recorded' ? `How ${target.path} changed on disk` : `${target.path}: on disk and after a publish`);
  const navigator = useRef<DiffNavigator>(null);
  const fileAt = files ? files.paths.indexOf(target.path) : -1;
  const stepFile = (direction: 1 | -1) => {
    const next = files && stepPath(files.paths, target.path, direction);
    if (files && next !== undefined && next !== target.path) files.show(next);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') return onClose();
    const forward = event.key === 'F8' || (event.altKey && event.key === 'ArrowDown');
    const back = event.key === 'F7' || (event.altKey && event.key === 'ArrowUp');
    if (!forward && !back) return;
    event.preventDefault();
    if (event.shiftKey && (event.key === 'F8' || event.key === 'F7')) stepFile(forward ? 1 : -1);
    else navigator.current?.step(forward ? 1 : -1);
  };

  return (
    <section className="section content-diff-panel" aria-labelledby="content-diff-title" onKeyDown={onKeyDown}>
      <div className="content-diff-head">
        <h2 id="content-diff-title" ref={heading} tabIndex={-1}>
          {title}
        </h2>
        <button type="button" className="button small" onClick={onClose} aria-label="Close the diff">
          <Icon name="x" /> Close
        </button>
      </div>
      <div className="button-row diff-walk">
        <button type="button" className="button small" onClick={() => navigator.current?.step(-1)} title="F7 or Alt+↑">
          Previous change
        </button>
        <button type="button" className="button small" onClick={() => navigator.current?.step(1)} title="F8 or Alt+↓">
          Next change
        </button>
        {files && files.paths.length > 1 && (
          <>
            <button type="button" className="button small" onClick={() => stepFile(-1)} title="Shift+F7">
              Previous {files.noun}
            </button>
            <button type="button" className="button small" onClick={() => stepFile(1)} title="Shift+F8">
              Next {files.noun}
            </button>
            {fileAt >= 0 && (
              <span className="muted" data-testid="diff-file-position">
                {files.noun} {fileAt + 1} of {files.paths.length}
              </span>
            )}
          </>
        )}
      </div>
      {(state.status === 'loading' || state.status === 'idle') && <p role="status">Reading both sides of {target.path}…</p>}
      {state.status === 'error' && (
        <Callout tone="danger" title={`Could not diff ${target.path}`} role="alert">
          <p>{state.error.message}</p>
        </Callout>
      )}
      {state.status === 'ok' && (
        <ContentDiffView key={`${target.path}:${target.against}:${source ?? ''}`} diff={state.value} navigator={navigator} />
      )}
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
