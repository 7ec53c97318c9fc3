// The checks every request to the browser host passes before anything else runs: the Host header
// (DNS rebinding), the Origin and Sec-Fetch-Site headers (cross-origin requests), and the per-run
// token. Pure functions over header values; they decide, the host only applies them.
// Must never accept a request because a header is merely absent where a browser always sends it.

import { timingSafeEqual } from 'node:crypto';

/** The names a page on this host may be reached by. 127.0.0.1 is what the host prints; localhost is what people type. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/**
 * A DNS-rebinding page reaches us under its own name (evil.example:PORT resolving to 127.0.0.1), so
 * the Host header names it; only our own names pass. HTTP/1.1 requires Host, so a missing one fails.
 */
export function isAllowedHost(host: string | undefined, port: number): boolean {
  return host !== undefined && allowedHosts(port).includes(host.toLowerCase());
}

/** Browsers send Origin on cross-origin requests and on every POST; when present it must be ours. */
export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return allowedHosts(port).some((host) => origin.toLowerCase() === `http://${host}`);
}

/**
 * Fetch metadata (Chromium, Firefox, Safari): `cross-site` and `same-site` are other pages;
 * `same-origin` is our page; `none` is the user typing the URL. Absent: not a browser (curl, tests).
 */
export function isAllowedFetchSite(site: string | undefined): boolean {
  return site === undefined || site === 'same-origin' || site === 'none';
}

/** Constant-time comparison, so the token cannot be guessed a character at a time. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
