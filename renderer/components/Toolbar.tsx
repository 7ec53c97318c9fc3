// The top bar: the open workspace, Open (native dialog in Electron, a path form in the browser),
// Rescan (the workspace file or folder read again, then every destination), Verify all, Export of the scan report as JSON or CSV,
// History, and on the app's own demo workspace, Reset demo… (ResetDemoDialog.tsx).

import { useEffect, useState } from 'react';
import type { ApiError } from '../../shared/api';
import { getClient } from '../api/client';
import { useExportReport } from '../hooks/api';
import { reportError, rescan, tryOpenWorkspace, verify } from '../state/actions';
import { useAppState } from '../state/store';
import { download } from './download';
import { Icon } from './Icon';
import { OpenWorkspaceDialog } from './OpenWorkspaceDialog';
import { HistoryDialog } from './HistoryDialog';
import { ResetDemoDialog } from './ResetDemoDialog';

export function Toolbar() {
  const workspace = useAppState((state) => state.workspace);
  const busy = useAppState((state) => state.jobs.some((job) => job.method === 'scan' || job.method === 'verify'));
  const [openForm, setOpenForm] = useState(false);
  /** A workspace picked in the native dialog that did not open: the Open dialog shows why. */
  const [pickFailure, setPickFailure] = useState<{ path: string; error: ApiError }>();
  const [historyOpen, setHistoryOpen] = useState(false);
  const [resetOpen, setResetOpen] = useState(false);
  // The desktop menu's File → Reset Demo Workspace… asks for the same dialog.
  useEffect(() => getClient().on('appCommand', ({ command }) => command === 'resetDemo' && setResetOpen(true)), []);
  const exporter = useExportReport();

  const open = async () => {
    const client = getClient();
    if (client.transport !== 'electron') return setOpenForm(true);
    const picked = await client.invoke('chooseWorkspace', {});
    if (!picked.ok) return reportError('Could not show the open dialog', picked.error);
    const path = picked.value.path;
    if (!path) return;
    const opened = await tryOpenWorkspace(path);
    if (!opened.ok) {
      setPickFailure({ path, error: opened.error });
      setOpenForm(true);
    }
  };

  const exportAs = async (format: 'json' | 'csv') => {
    const answer = await exporter.run({ format });
    if (answer.status === 'ok') download(answer.value.fileName, answer.value.mediaType, answer.value.content);
    else if (answer.status === 'error') reportError(`Export as ${format.toUpperCase()} failed`, answer.error);
  };

  return (
    <header className="toolbar">
      <div className="brand">
        <Icon name="package" />
        <span>Distributor Inspector</span>
      </div>
      <div className="workspace-name">
        <strong>{workspace ? workspace.path.split(/[\\/]/).filter(Boolean).slice(-2).join('/') : 'No workspace open'}</strong>
        {workspace && <span title={workspace.path}>{workspace.path}</span>}
      </div>
      <button type="button" className="button" onClick={() => void open()}>
        <Icon name="folder" /> Open…
      </button>
      <button type="button" className="button" onClick={() => void rescan()} disabled={!workspace || busy}>
        <Icon name="refresh" /> Rescan
      </button>
      <button type="button" className="button" onClick={() => void verify()} disabled={!workspace || busy}>
        <Icon name="shield" /> Verify all
      </button>
      <button
        type="button"
        className="button"
        onClick={() => void exportAs('json')}
        disabled={!workspace || exporter.state.status === 'loading'}
      >
        <Icon name="download" /> Export JSON
      </button>
      <button
        type="button"
        className="button"
        onClick={() => void exportAs('csv')}
        disabled={!workspace || exporter.state.status === 'loading'}
      >
        <Icon name="download" /> Export CSV
      </button>
      <button type="button" className="button" onClick={() => setHistoryOpen(true)} disabled={!workspace}>
        <Icon name="clock" /> History
      </button>
      {workspace?.demo && (
        <button type="button" className="button" onClick={() => setResetOpen(true)} disabled={busy}>
          <Icon name="refresh" /> Reset demo…
        </button>
      )}
      {openForm && (
        <OpenWorkspaceDialog
          initialFailure={pickFailure}
          onClose={() => {
            setOpenForm(false);
            setPickFailure(undefined);
          }}
        />
      )}
      {historyOpen && <HistoryDialog onClose={() => setHistoryOpen(false)} />}
      {resetOpen && <ResetDemoDialog onClose={() => setResetOpen(false)} />}
    </header>
  );
}
