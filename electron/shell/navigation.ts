// What the window may navigate to and which links may leave the app. The page never navigates
// (it is one document); no frame of it ever navigates; new windows and webviews are never opened;
// the system browser gets https links only. guardWebContents wires the rules onto each web contents
// (main.ts calls it from 'web-contents-created'); it takes a structural type, so the wiring is
// tested with a fake under Node. Type-only import of Electron.

import type { Event as ElectronEvent } from 'electron';
import { APP_ORIGIN } from './windowOptions';

/** A reload of our own page is the only navigation there is; everything else is refused. */
export function isAllowedNavigation(target: string): boolean {
  try {
    const url = new URL(target);
    return `${url.protocol}//${url.host}` === APP_ORIGIN;
  } catch {
    return false;
  }
}

/** Only https: never file:, javascript:, a custom scheme that launches a program, or plain http. */
export function isOpenableExternalUrl(target: string): boolean {
  try {
    const url = new URL(target);
    return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/**
 * A frame navigation (will-frame-navigate): only the main frame, and only to our own page. The app
 * has no frames, so a subframe that navigates was put there by something else: refused, whatever
 * its target (a subframe on app://renderer would be one more page of our origin).
 */
export function isAllowedFrameNavigation(details: { url: string; isMainFrame: boolean }): boolean {
  return details.isMainFrame && isAllowedNavigation(details.url);
}

type Preventable = Pick<ElectronEvent, 'preventDefault'>;

/** The part of Electron's WebContents the guards use. */
export interface GuardedContents {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: Preventable, url: string) => void): unknown;
  on(event: 'will-frame-navigate', listener: (details: Preventable & { url: string; isMainFrame: boolean }) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: Preventable) => void): unknown;
  setWindowOpenHandler(handler: () => { action: 'deny' }): void;
}

/** No navigation away from the app in any frame, no redirect, no webview, no new window: every web contents, ever. */
export function guardWebContents(contents: GuardedContents): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url)) event.preventDefault();
  });
  // will-navigate sees the main frame only; this one sees every frame, subframes included.
  contents.on('will-frame-navigate', (details) => {
    if (!isAllowedFrameNavigation(details)) details.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedNavigation(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}
