// Who may call the API over IPC: only the top frame of our own page, served from app://renderer.
// A frame of any other origin (a navigated page, an iframe, a devtools extension) is refused.
// Must never trust a URL by prefix: origins are compared after parsing.

import { APP_ORIGIN } from './windowOptions';

export interface SenderFrame {
  url: string | undefined;
  /** Whether the frame is the window's top frame (senderFrame.parent === null). */
  isMainFrame: boolean;
}

export function isTrustedSender(frame: SenderFrame | null | undefined): boolean {
  if (!frame || !frame.isMainFrame || !frame.url) return false;
  let url: URL;
  try {
    url = new URL(frame.url);
  } catch {
    return false;
  }
  // `app://renderer` is a standard scheme, so URL gives it a real origin.
  return `${url.protocol}//${url.host}` === APP_ORIGIN && url.username === '' && url.password === '';
}
