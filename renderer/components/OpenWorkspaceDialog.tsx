// Opening a workspace in the browser host: a path field and the recent workspaces. (In Electron the
// toolbar uses the native dialog instead.)

import { useState } from 'react';
import { openWorkspace, recentWorkspaces } from '../state/actions';
import { useAppState } from '../state/store';
import { Dialog } from './Dialog';

export function OpenWorkspaceForm({ onOpened, autoFocus = false }: { onOpened?: () => void; autoFocus?: boolean }) {
  const [path, setPath] = useState('');
  const opening = useAppState((state) => state.opening);
  const recent = recentWorkspaces();
  const open = async (target: string) => {
    if (await openWorkspace(target)) onOpened?.();
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
            data-autofocus={autoFocus || undefined}
          />
          <span className="hint">A folder whose subfolders are destinations, or a workspace file that lists them.</span>
        </div>
        <button type="submit" className="button primary" disabled={opening || path.trim() === ''}>
          {opening ? 'Opening…' : 'Open'}
        </button>
      </form>
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

export function OpenWorkspaceDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title="Open a workspace" labelId="open-title" onClose={onClose}>
      <OpenWorkspaceForm onOpened={onClose} autoFocus />
      <footer>
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
      </footer>
    </Dialog>
  );
}
