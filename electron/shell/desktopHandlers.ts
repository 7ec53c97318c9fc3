// The methods only the desktop app can carry out: the native file dialog, the file manager, the
// system browser, the log file. Electron itself comes in as `deps`, so these are tested under Node.
// Must never reveal a path outside the open workspace's destinations, nor open a link that is not
// an https url recorded in a destination's state.

import { fail } from '../../shared/apiError';
import type { ElectronOnlyMethod, HandlerTable, Session } from '../service/session';
import { pathInside, recordedHttpsLink } from '../service/sessionDestinations';
import { isOpenableExternalUrl } from './navigation';

export interface DesktopDeps {
  /** The native open dialog; the chosen path, or null when cancelled. */
  chooseWorkspace(kind: 'folder' | 'file'): Promise<string | null>;
  /** The native folder dialog for a source bundle, opened in `startIn` (the workspace's folder) when given. */
  chooseSourceBundle(startIn: string | undefined): Promise<string | null>;
  showItemInFolder(absolutePath: string): void;
  openExternal(url: string): Promise<void>;
  log(level: 'error' | 'warn' | 'info', message: string, context?: string): void;
  openLogsFolder(): Promise<void>;
}

/** Typed as every electron-only method of the table: adding one there fails the build until it is here. */
export function desktopHandlers(session: Session, deps: DesktopDeps): Pick<HandlerTable, ElectronOnlyMethod> {
  return {
    chooseWorkspace: async ({ kind }) => ({ path: await deps.chooseWorkspace(kind ?? 'folder') }),
    chooseSourceBundle: async () => ({ path: await deps.chooseSourceBundle(session.state.workspace?.summary.root) }),
    revealPath: async ({ destination, path }) => {
      deps.showItemInFolder(pathInside(session, destination, path));
      return { revealed: true };
    },
    openLink: async ({ destination, url }) => {
      if (!isOpenableExternalUrl(url))
        throw fail('refused', `only https links are opened in the browser, not ${JSON.stringify(url.slice(0, 80))}`);
      if (!(await recordedHttpsLink(session, destination, url)))
        throw fail('refused', `${url} is not a link recorded in the state of "${destination}"`);
      await deps.openExternal(url);
      return { opened: true };
    },
    log: async ({ level, message, context }) => {
      deps.log(level, message, context);
      return { logged: true };
    },
    openLogsFolder: async () => {
      await deps.openLogsFolder();
      return { opened: true };
    },
  };
}
