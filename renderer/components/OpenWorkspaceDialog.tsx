// Opening a workspace: a path field and the recent workspaces (the browser host; in Electron the
// toolbar uses the native dialog, and comes here only to show why a picked workspace did not open).
// A workspace that does not open is explained here, in the dialog, never behind it: the file once,
// then every problem with its field, as `scan` lists them.

import { useState } from 'react';
import type { ApiError } from '../../shared/api';
import { recentWorkspaces, tryOpenWorkspace } from '../state/actions';
import { useAppState } from '../state/store';
import { openFailureOf, type OpenFailure } from '../view/openFailure';
import { plural } from '../view/format';
import { Callout } from './Callout';
import { Dialog } from './Dialog';

/** Every problem of a workspace that did not open, under one heading that names it. */
export function OpenFailureView({ failure }: { failure: OpenFailure }) {
  const count = failure.problems.length;
  return (
    <div className="open-failure" data-testid="open-failure">
      <Callout tone="danger" role="alert" title={`Could not open ${failure.file}`}>
        {count > 1 && <p>{plural(count, 'problem')}; fix them all, then open it again:</p>}
        <ul className="open-problems">
          {failure.problems.map((problem, index) => (
            <li key={index}>
              {problem.field !== undefined && (
                <>
                  <code>{problem.field}</code>:{' '}
                </>
              )}
              {problem.message}
            </li>
          ))}
        </ul>
      </Callout>
    </div>
  );
}

interface FormProps {
  onOpened?: () => void;
  autoFocus?: boolean;
  /** Shown from the start: the desktop app's pick that did not open. */
  initialFailure?: { path: string; error: ApiError };
}

export function OpenWorkspaceForm({ onOpened, autoFocus = false, initialFailure }: FormProps) {
  const [path, setPath] = useState(initialFailure?.path ?? '');
  const [failure, setFailure] = useState<OpenFailure | undefined>(
    initialFailure && openFailureOf(initialFailure.path, initialFailure.error),
  );
  const opening = useAppState((state) => state.opening);
  const workspaceRoot = useAppState((state) => state.workspace?.root);
  const recent = recentWorkspaces();
  const open = async (target: string) => {
    setFailure(undefined);
    const opened = await tryOpenWorkspace(target);
    if (opened.ok) onOpened?.();
    else setFailure(openFailureOf(target, opened.error));
  };
  return (
    <div>
      <form
        className="source-picker"
        onSubmit={(event) => {
          event.preventDefault();
          if (path.trim() !== '') void open(path.trim());
        }}
      >
        <div className="field">
          <label htmlFor="workspace-path">Workspace folder or distributor-inspector.json</label>
          <input
            id="workspace-path"
            value={path}
            onChange={(event) => setPath(event.target.value)}
            placeholder="/srv/publish/distributor-inspector.json"
            spellCheck={false}
            aria-invalid={failure ? true : undefined}
            aria-describedby={failure ? 'open-failure' : undefined}
            data-autofocus={autoFocus || undefined}
          />
          <span className="hint">
            A folder whose subfolders are destinations, or a workspace file that lists them. A relative path is read from the open
            workspace&apos;s folder
            {workspaceRoot ? (
              <>
                {' '}
                <code>{workspaceRoot}</code>
              </>
            ) : (
              ' (your home folder when none is open)'
            )}
            ; <code>~</code> is the home folder of the user the inspector runs as.
          </span>
        </div>
        <button type="submit" className="button primary" disabled={opening || path.trim() === ''}>
          {opening ? 'Opening…' : 'Open'}
        </button>
      </form>
      {failure && (
        <div id="open-failure">
          <OpenFailureView failure={failure} />
        </div>
      )}
      {recent.length > 0 && (
        <>
          <h3 className="section-title">Recent</h3>
          <ul className="recent">
            {recent.map((item) => (
              <li key={item}>
                <button type="button" className="button" onClick={() => void open(item)} disabled={opening}>
                  {item}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

export function OpenWorkspaceDialog({ onClose, initialFailure }: { onClose: () => void; initialFailure?: FormProps['initialFailure'] }) {
  return (
    <Dialog title="Open a workspace" labelId="open-title" onClose={onClose}>
      <OpenWorkspaceForm onOpened={onClose} autoFocus initialFailure={initialFailure} />
      <footer>
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
      </footer>
    </Dialog>
  );
}
