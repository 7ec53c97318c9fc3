// The one file that touches ipcMain: it hands Electron's real registrar to the binding in
// electron/shell/ipcBinding.ts, which holds the wiring (and its tests). Lint keeps ipcMain here.

import { ipcMain, type WebContents } from 'electron';
import type { HandlerTable, Session } from './service/session';
import { registerIpc } from './shell/ipcBinding';

export { sendEvent } from './shell/ipcBinding';

/** Serves every API method over IPC; returns a function that removes them again. */
export function setupIpc(session: Session, overrides: Partial<HandlerTable>, targets: () => WebContents[]): () => void {
  return registerIpc(ipcMain, session, overrides, targets);
}
