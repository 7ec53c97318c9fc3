// Where the app's commands come from: the Electron menu (its accelerators arrive as the appCommand
// event) and, in the browser host, the page's own key presses matched against the one shortcut table
// (shared/shortcuts.ts). In Electron the page leaves those keys to the menu, so nothing fires twice.
// The toolbar carries the commands out; `/` finds and `?` opens the shortcut sheet in both hosts.

import { commandOfKey, type AppCommand } from '../../shared/shortcuts';
import { getClient } from '../api/client';

type Handler = (command: AppCommand | 'shortcuts', path?: string) => void;

const handlers = new Set<Handler>();

/** The toolbar's way to hear the commands; returns how to stop. */
export function onAppCommand(handler: Handler): () => void {
  handlers.add(handler);
  return () => void handlers.delete(handler);
}

export function runAppCommand(command: AppCommand | 'shortcuts', path?: string): void {
  for (const handler of handlers) handler(command, path);
}

export function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return Boolean(
    element && (element.tagName === 'INPUT' || element.tagName === 'TEXTAREA' || element.tagName === 'SELECT' || element.isContentEditable),
  );
}

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Listens to the menu's commands and the page's keys; returns how to stop. */
export function listenForAppCommands(): () => void {
  const client = getClient();
  const offMenu = client.on('appCommand', ({ command, path }) => runAppCommand(command, path));
  const onKey = (event: KeyboardEvent) => {
    if (event.defaultPrevented || document.querySelector('[aria-modal="true"]')) return;
    const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
    if (plain && !isTyping(event.target) && (event.key === '/' || event.key === '?')) {
      event.preventDefault();
      runAppCommand(event.key === '/' ? 'find' : 'shortcuts');
      return;
    }
    // Electron: the menu's accelerator has it, and sends it back as appCommand.
    if (client.transport === 'electron') return;
    const command = commandOfKey(event, isMac());
    if (!command) return;
    event.preventDefault();
    runAppCommand(command);
  };
  window.addEventListener('keydown', onKey);
  return () => {
    offMenu();
    window.removeEventListener('keydown', onKey);
  };
}
