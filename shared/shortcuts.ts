// The app's keyboard shortcuts, declared once: the Electron menu takes its accelerators from the
// command table, the page matches key presses against it (so the browser host has the same keys), and
// the shortcut sheet lists both tables. Pure data and a matcher: never imports Electron or the DOM.

import type { EventOf } from './api';

export type AppCommand = EventOf<'appCommand'>['command'];

export interface CommandShortcut {
  command: AppCommand;
  /** Electron's accelerator syntax; CmdOrCtrl is Cmd on macOS, Ctrl elsewhere. */
  accelerator: string;
  /** What the sheet says it does. */
  does: string;
}

/**
 * The commands the menu offers. Verify all is Shift+A, not Shift+V (paste as plain text in Chromium);
 * Rescan owns CmdOrCtrl+R in every mode (a developer's reload moves to CmdOrCtrl+Shift+R).
 */
export const COMMAND_SHORTCUTS: readonly CommandShortcut[] = [
  { command: 'find', accelerator: 'CmdOrCtrl+F', does: 'Find: focus the destination search' },
  { command: 'verifyAll', accelerator: 'CmdOrCtrl+Shift+A', does: 'Verify all destinations' },
  { command: 'rescan', accelerator: 'CmdOrCtrl+R', does: 'Rescan the workspace' },
  { command: 'exportReport', accelerator: 'CmdOrCtrl+Shift+E', does: 'Export the report as JSON' },
  { command: 'openWorkspace', accelerator: 'CmdOrCtrl+O', does: 'Open a workspace' },
];

/** Keys the page handles itself (no menu item): listed in the sheet beside the commands. */
export const PAGE_SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: '/', does: 'Search destinations' },
  { keys: '↓ or Enter (in the search)', does: 'Move into the list' },
  { keys: '↑ ↓ PageUp PageDown Home End', does: 'Move through the list (Shift: select a range)' },
  { keys: 'Letters (in the list)', does: 'Jump to the next destination whose id starts with them' },
  { keys: 'Ctrl/Cmd+A (in the list)', does: 'Select every destination shown' },
  { keys: 'Escape', does: 'Clear the search, a selection of several, or close a dialog or diff' },
  { keys: '← →', does: 'Switch tabs' },
  { keys: 'F8 or Alt+↓', does: 'Diff: next difference' },
  { keys: 'F7 or Alt+↑', does: 'Diff: previous difference' },
  { keys: 'Shift+F8 / Shift+F7', does: 'Diff: next / previous drifted file' },
  { keys: '?', does: 'Show this sheet' },
];

export function acceleratorOf(command: AppCommand): string {
  const found = COMMAND_SHORTCUTS.find((shortcut) => shortcut.command === command);
  if (!found) throw new Error(`no shortcut for ${command}`);
  return found.accelerator;
}

/** An accelerator as the platform writes it: ⌘⇧A on macOS, Ctrl+Shift+A elsewhere. */
export function keysLabel(accelerator: string, isMac: boolean): string {
  const parts = accelerator.split('+');
  if (!isMac) return parts.map((part) => (part === 'CmdOrCtrl' ? 'Ctrl' : part)).join('+');
  const mac: Record<string, string> = { CmdOrCtrl: '⌘', Shift: '⇧', Alt: '⌥', Ctrl: '⌃' };
  return parts.map((part) => mac[part] ?? part).join('');
}

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** The command a key press means, if any: exactly the accelerator's modifiers, the letter in any case. */
export function commandOfKey(press: KeyPress, isMac: boolean): AppCommand | undefined {
  for (const shortcut of COMMAND_SHORTCUTS) {
    const parts = shortcut.accelerator.split('+');
    const key = parts[parts.length - 1]!;
    const wantsPrimary = parts.includes('CmdOrCtrl');
    const primary = isMac ? press.metaKey : press.ctrlKey;
    const other = isMac ? press.ctrlKey : press.metaKey;
    if (primary !== wantsPrimary || other) continue;
    if (press.shiftKey !== parts.includes('Shift') || press.altKey !== parts.includes('Alt')) continue;
    if (press.key.toLowerCase() === key.toLowerCase()) return shortcut.command;
  }
  return undefined;
}
