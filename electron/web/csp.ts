// The Content-Security-Policy of the renderer page, for both transports. One place, so the desktop
// window and the browser host can never drift apart. Must never allow inline script, eval or a
// foreign origin: the renderer needs nothing but its own files.

/** What the page needs and nothing more: its own scripts and styles, its own images and data: icons. */
export const RENDERER_CSP_BASE = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:";

/**
 * Also refused outright, since `default-src` does not cover them: being framed (clickjacking),
 * a `<base>` that re-points relative URLs, and form posts anywhere.
 */
const HARDENING = "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Electron: the renderer talks over IPC, so it may not open any connection at all. */
export const ELECTRON_CSP = `${RENDERER_CSP_BASE}; ${HARDENING}`;

/** Browser host: the same, plus `fetch` to its own origin for `POST /api/…` and the event stream. */
export const BROWSER_HOST_CSP = `${RENDERER_CSP_BASE}; connect-src 'self'; ${HARDENING}`;

/** Headers every response of the browser host carries, pages and API alike. */
export function securityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}
