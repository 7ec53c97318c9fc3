// The workspace the engine has open, shown the one way the start (App.tsx) and a reconnection
// (connectionActions.ts) both show it: its scan asked for beside appInfo, appInfo answering only the
// first destinations, those built in slices and shown with their scan rows, the rest a page at a time
// once the first rows are in (listPages.ts). Never reads the whole list in one answer, never builds
// it in one task.

import type { Workspace } from '../../shared/api';
import { afterFirstRows, dropRestOfList, expectRestOfList, showRestOfList } from './listPages';
import { scan } from './scanActions';
import { nextTask, showWorkspaceInSlices } from './workspaceActions';

/** A scan asked for before the list it fills is shown: its rows wait for `listShown`. */
export interface ScanBesideList {
  /** Tell the scan whether its list showed (false: it is dropped unseen). */
  listShown: (shown: boolean) => void;
  /** Resolves once the first batch of rows is in the store, or the scan ended without any. */
  firstRows: Promise<void>;
  /** Resolves once the scan ended, however it ended. */
  scanned: Promise<void>;
}

/** Starts a scan of the whole workspace whose rows wait for the list `listShown` will say is shown. */
export function scanBesideList(): ScanBesideList {
  let settle: (shown: boolean) => void = () => undefined;
  const shown = new Promise<boolean>((resolve) => (settle = resolve));
  let firstRowsIn: () => void = () => undefined;
  const firstRows = new Promise<void>((resolve) => (firstRowsIn = resolve));
  // A scan that ends (or fails) with no rows shown holds nothing back.
  const scanned = scan(undefined, shown, firstRowsIn).then(firstRowsIn, firstRowsIn);
  return { listShown: settle, firstRows, scanned };
}

/**
 * Shows `first` (appInfo's first destinations of `total`), with what `onShown` sets in the same
 * task (the page never renders one without the other), tells the scan, then shows the rest of the list. Resolves true once the whole list is shown,
 * false when another list took its place meanwhile.
 */
export async function showInPages(first: Workspace, total: number, scanning: ScanBesideList, onShown?: () => void): Promise<boolean> {
  const unlisted = Math.max(0, total - first.destinations.length);
  if (unlisted > 0) expectRestOfList();
  const shown = await showWorkspaceInSlices(first, unlisted, onShown);
  scanning.listShown(shown);
  if (!shown) {
    if (unlisted > 0) dropRestOfList();
    return false;
  }
  if (unlisted === 0) return true;
  await afterFirstRows(scanning.firstRows);
  return showRestOfList(first, total, nextTask);
}
