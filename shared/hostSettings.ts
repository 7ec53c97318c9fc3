// The ssh settings a workspace host keeps in the workspace file (issue 28): an identity file, a jump
// host and an ssh config file, beside its URL and agent command, so that the app reaches a host
// without an environment variable set before it starts. Each is checked strictly: nothing written
// here can reach ssh's command line as another option. Pure; never throws.

import { parseSshUrl } from './sshUrl';

/** A file on this machine ssh reads (`-i`, `-F`): absolute or `~/…`, plain segments, no control character. */
export function localSshFileProblem(text: string): string | undefined {
  if (text.length > 4096) return 'is longer than 4096 characters';
  if (/[\u0000-\u001f\u007f]/.test(text)) return 'holds a control character';
  if (!text.startsWith('/') && !text.startsWith('~/'))
    return `must be absolute (/…) or in your home folder (~/…), not ${JSON.stringify(text)}`;
  const segments = text.split('/').slice(1);
  if (segments.some((segment) => segment === '.' || segment === '..')) return 'must be plain: no . or .. segment';
  if (segments.some((segment) => segment === '')) return 'holds an empty segment (//) or ends with /';
  return undefined;
}

/** `[user@]host[:port]` for ssh's `-J`: the same strict rules as the host of an ssh URL. */
export function jumpHostProblem(text: string): string | undefined {
  if (text.length > 300) return 'is longer than 300 characters';
  const parsed = parseSshUrl(`ssh://${text}/`);
  if (!parsed.ok) return parsed.message.replace(/^"[^"]*" is not an ssh URL: /, '');
  return undefined;
}

/** A day: past that a handshake deadline is a typo, and a host that slow is better found out. */
export const MAX_CONNECT_TIMEOUT_SECONDS = 86_400;

/** The host's ssh settings as the loaded workspace (and the API) carry them. */
export interface HostSshSettings {
  identityFile?: string;
  jumpHost?: string;
  sshConfig?: string;
}

/**
 * The ssh options of a host's settings, before the destination: `-F FILE`, `-i FILE`, `-J JUMP`.
 * `home` expands a leading `~/` (ssh does not expand it for -F).
 */
export function sshOptionsOf(settings: HostSshSettings, home: string): string[] {
  const expand = (file: string) => (file.startsWith('~/') ? `${home.replace(/\/+$/, '')}/${file.slice(2)}` : file);
  return [
    ...(settings.sshConfig ? ['-F', expand(settings.sshConfig)] : []),
    ...(settings.identityFile ? ['-i', expand(settings.identityFile)] : []),
    ...(settings.jumpHost ? ['-J', settings.jumpHost] : []),
  ];
}
