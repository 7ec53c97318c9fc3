// How a workspace host's connection is told: a word, an icon and a tone each (never colour alone),
// and whether it can be tried again. Pure.

import type { HostState } from '../../shared/api';

export interface HostLook {
  label: string;
  icon: 'checkCircle' | 'clock' | 'xCircle' | 'alert';
  tone: 'tone-good' | 'tone-neutral' | 'tone-danger' | 'tone-warning';
}

export const HOST_LOOK: Record<HostState['state'], HostLook> = {
  connected: { label: 'connected', icon: 'checkCircle', tone: 'tone-good' },
  connecting: { label: 'connecting…', icon: 'clock', tone: 'tone-neutral' },
  failed: { label: 'failed', icon: 'xCircle', tone: 'tone-danger' },
  lost: { label: 'connection lost', icon: 'alert', tone: 'tone-warning' },
};

/** Failed or lost: worth trying again (a lost one is also tried by itself, with its countdown). */
export function canReconnect(host: HostState): boolean {
  return host.state === 'failed' || host.state === 'lost';
}

/** "web-1 (ssh://web-1/srv/www)": how a destructive action's confirmation names the host. */
export function hostPhrase(host: { name: string; url?: string }): string {
  return host.url ? `${host.name} (${host.url})` : host.name;
}

/** "reconnecting in 4 s": a lost host's countdown to its next automatic try; "reconnecting…" once due. */
export function retryCountdown(retryAt: string, now: number): string {
  const seconds = Math.ceil((Date.parse(retryAt) - now) / 1000);
  if (!Number.isFinite(seconds)) return '';
  return seconds > 0 ? `reconnecting in ${seconds} s` : 'reconnecting…';
}

/** What a row of a host that is not connected says its status is: last known, and as of when. */
export function lastKnownPhrase(host: Pick<HostState, 'name' | 'state' | 'lastConnected'>, local: (iso: string) => string): string {
  const why = host.state === 'lost' ? 'host lost' : host.state === 'failed' ? 'host failed' : 'host connecting';
  return host.lastConnected ? `${why}, last known ${local(host.lastConnected)}` : `${why}, last known`;
}
