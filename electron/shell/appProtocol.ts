// Serves the built renderer under app://renderer/ for the desktop window, with the CSP header on
// every response. Looks files up in an index of dist/renderer (never joins a URL onto a path).
// Must never serve anything for another host name of the scheme or outside the built folder.

import type { StaticFiles } from '../web/staticFiles';
import { contentTypeOf } from '../web/staticFiles';
import { ELECTRON_CSP } from '../web/csp';
import { APP_HOST, APP_SCHEME } from './windowOptions';

export interface AppResponse {
  status: number;
  /** The file to send when status is 200. */
  file?: string;
  headers: Record<string, string>;
}

export async function resolveAppRequest(requestUrl: string, files: StaticFiles): Promise<AppResponse> {
  const base = { 'content-security-policy': ELECTRON_CSP, 'x-content-type-options': 'nosniff' };
  let url: URL;
  let pathname: string;
  try {
    url = new URL(requestUrl);
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return { status: 404, headers: { ...base, 'content-type': 'text/plain; charset=utf-8' } };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST)
    return { status: 404, headers: { ...base, 'content-type': 'text/plain; charset=utf-8' } };
  const file = await files.lookup(pathname === '' ? '/' : pathname);
  if (!file) return { status: 404, headers: { ...base, 'content-type': 'text/plain; charset=utf-8' } };
  return { status: 200, file, headers: { ...base, 'content-type': contentTypeOf(file) } };
}
