// What the window may navigate to and which links may leave the app. The page never navigates
// (it is one document); new windows are never opened; the system browser gets https links only.

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
