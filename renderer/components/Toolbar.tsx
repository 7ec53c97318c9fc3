// The top bar: the open workspace, Open (native dialog in Electron, a path form in the browser),
// Rescan (the workspace file or folder read again, then every destination), Verify all, Export of the scan report as JSON or CSV,
// History, and on the app's own demo workspace, Reset demo workspace… (ResetDemoDialog.tsx).

import { useEffect, useEffectEvent, useState } from 'react';
import type { ApiError } from '../../shared/api';
import { getClient } from '../api/client';
import { useExportReport } from '../hooks/api';
import { reportError, rescan, tryOpenWorkspace, verify } from '../state/actions';
import { useAppState } from '../state/store';
import { download } from './download';
import { Icon } from './Icon';
import { HistoryDialog, OpenWorkspaceDialog, ResetDemoDialog } from './laterViews';
import { ShortcutSheet } from './ShortcutSheet';
import { SEARCH_INPUT_ID } from './Sidebar';
import { onAppCommand } from '../state/appCommands';
import type { AppCommand } from '../../shared/shortcuts';

export function Toolbar() {
  const workspace = useAppState((state) => state.workspace);
  const busy = useAppState((state) => state.jobs.some((job) => job.method === 'scan' || job.method === 'verify'));
  const [openForm, setOpenForm] = useState(false);
  /** A workspace picked in the native dialog that did not open: the Open dialog shows why. */
  const [pickFailure, setPickFailure] = useState<{ path: string; error: ApiError }>();
  const [historyOpen, setHistoryOpen] = useState(false);
  const [resetOpen, setResetOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const exporter = useExportReport();

  const open = async () => {
    const client = getClient();
    if (client.transport !== 'electron') return setOpenForm(true);
    const picked = await client.invoke('chooseWorkspace', {});
    if (!picked.ok) return reportError('Could not show the open dialog', picked.error);
    if (picked.value.path) await openPath(picked.value.path);
  };

  /** A path picked in the native dialog or the menu's Open Recent: one that does not open shows why. */
  const openPath = async (path: string) => {
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

  // The menu's commands and the shortcut table's keys (state/appCommands.ts), as the buttons would.
  const onCommand = useEffectEvent((command: AppCommand | 'shortcuts', path?: string) => {
    const canRun = workspace !== undefined && !busy;
    if (command === 'find') document.getElementById(SEARCH_INPUT_ID)?.focus();
    if (command === 'shortcuts') setShortcutsOpen(true);
    if (command === 'openWorkspace') void (path === undefined ? open() : openPath(path));
    if (command === 'rescan' && canRun) void rescan();
    if (command === 'verifyAll' && canRun) void verify();
    if (command === 'exportReport' && workspace && exporter.state.status !== 'loading') void exportAs('json');
    // The desktop menu's File → Reset Demo Workspace…: the same dialog as the button, on the demo only.
    if (command === 'resetDemo' && workspace?.demo && !busy) setResetOpen(true);
  });
  useEffect(() => onAppCommand((command, path) => onCommand(command, path)), []);

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
      {/* "Export" said once beside two short buttons, so the bar fits on one line at 1024 px; each
          button's name still says the whole of it (the hidden word). */}
      <div className="button-group" role="group" aria-label="Export the report">
        <span className="group-label" aria-hidden="true">
          <Icon name="download" /> Export
        </span>
        {(['json', 'csv'] as const).map((format) => (
          <button
            key={format}
            type="button"
            className="button"
            onClick={() => void exportAs(format)}
            disabled={!workspace || exporter.state.status === 'loading'}
          >
            <span className="visually-hidden">Export </span>
            {format.toUpperCase()}
          </button>
        ))}
      </div>
      <button type="button" className="button" onClick={() => setHistoryOpen(true)} disabled={!workspace}>
        <Icon name="clock" /> History
      </button>
      {workspace?.demo && (
        // An icon beside the shortcuts button, so the bar still holds one line at 1024 px; its name says it all.
        <button
          type="button"
          className="button"
          onClick={() => setResetOpen(true)}
          disabled={busy}
          aria-label="Reset demo workspace…"
          title="Reset demo workspace…"
        >
          <Icon name="trash" />
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
      <button
        type="button"
        className="button"
        onClick={() => setShortcutsOpen(true)}
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
      >
        <Icon name="question" />
      </button>
      {historyOpen && <HistoryDialog onClose={() => setHistoryOpen(false)} />}
      {resetOpen && <ResetDemoDialog onClose={() => setResetOpen(false)} />}
      {shortcutsOpen && <ShortcutSheet onClose={() => setShortcutsOpen(false)} />}
    </header>
  );
}
