// `ssh://[user@]host[:port]/absolute/path`: a destination, source, folder or workspace file on another
// machine (issue 15). Parsed strictly, so that nothing the operator typed reaches the ssh command
// line as an option: a host or user starting with `-` is refused, and so is anything ssh would read
// otherwise than as written. Pure; never throws.

export interface SshTarget {
  user?: string;
  host: string;
  port?: number;
  /** Absolute, percent-decoded, as on the remote host. */
  path: string;
}

export type SshUrlParse = { ok: true; value: SshTarget } | { ok: false; message: string };

const SCHEME = 'ssh://';
/** A user name as ssh passes it to the server: no `@`, `:`, `/`, space or control character, not starting with `-`. */
const USER = /^[A-Za-z0-9._][A-Za-z0-9._-]*$/;
/** A host name or an ssh config alias, or an IPv4 address: letters, digits, `.`, `-`, `_`; never a leading `-`. */
const HOST = /^[A-Za-z0-9_](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?$/;
const IPV6 = /^[0-9A-Fa-f:.]+$/;

export function isSshUrl(text: string): boolean {
  return text.startsWith(SCHEME);
}

export function parseSshUrl(text: string): SshUrlParse {
  const bad = (why: string): SshUrlParse => ({ ok: false, message: `${JSON.stringify(text)} is not an ssh URL: ${why}` });
  if (!text.startsWith(SCHEME)) return bad('it must start with ssh://');
  const rest = text.slice(SCHEME.length);
  const slash = rest.indexOf('/');
  if (slash === -1) return bad('the absolute path is missing (ssh://host/absolute/path)');
  const authority = rest.slice(0, slash);
  const rawPath = rest.slice(slash);
  if (/[?#]/.test(rawPath)) return bad('a query (?) or fragment (#) has no meaning here; write %3F or %23 for those characters');

  let user: string | undefined;
  let hostPort = authority;
  const at = authority.lastIndexOf('@');
  if (at !== -1) {
    user = authority.slice(0, at);
    hostPort = authority.slice(at + 1);
    if (!USER.test(user)) return bad(`the user ${JSON.stringify(user)} is not a plain user name`);
  }
  let host: string;
  let portText: string | undefined;
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close === -1) return bad('an IPv6 address opened with [ is not closed with ]');
    host = hostPort.slice(1, close);
    if (!IPV6.test(host) || !host.includes(':')) return bad(`[${host}] is not an IPv6 address`);
    const after = hostPort.slice(close + 1);
    if (after !== '' && !after.startsWith(':')) return bad('only :PORT may follow the ] of an IPv6 address');
    portText = after === '' ? undefined : after.slice(1);
  } else {
    const colon = hostPort.indexOf(':');
    host = colon === -1 ? hostPort : hostPort.slice(0, colon);
    portText = colon === -1 ? undefined : hostPort.slice(colon + 1);
    if (host === '') return bad('the host is missing');
    if (!HOST.test(host)) return bad(`the host ${JSON.stringify(host)} is not a host name, an address or an ssh config alias`);
  }
  let port: number | undefined;
  if (portText !== undefined) {
    if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535)
      return bad(`the port ${JSON.stringify(portText)} is not a number from 1 to 65535`);
    port = Number(portText);
  }

  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return bad('the path holds a % that is not followed by two hex digits of UTF-8');
  }
  if (/[\u0000-\u001f\u007f]/.test(path)) return bad('the path holds a control character');
  if (path.split('/').some((segment) => segment === '.' || segment === '..'))
    return bad('the path must be absolute and plain: no . or .. segment');
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '');
  if (/\/\//.test(path)) return bad('the path holds an empty segment (//)');
  return { ok: true, value: { ...(user !== undefined ? { user } : {}), host, ...(port !== undefined ? { port } : {}), path } };
}

/** The ssh destination argument: `[user@]host`. */
export function sshDestination(target: SshTarget): string {
  return target.user === undefined ? target.host : `${target.user}@${target.host}`;
}

/** The URL back, as parseSshUrl reads it (paths percent-encoded where needed). */
export function formatSshUrl(target: SshTarget): string {
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  const path = target.path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return `${SCHEME}${target.user !== undefined ? `${target.user}@` : ''}${host}${target.port !== undefined ? `:${target.port}` : ''}${path}`;
}

/** Whether two targets name the same connection (user, host and port). */
export function sameHost(a: SshTarget, b: SshTarget): boolean {
  return a.user === b.user && a.host === b.host && a.port === b.port;
}
