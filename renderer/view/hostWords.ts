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

export function canReconnect(host: HostState): boolean {
  return host.state === 'failed' || host.state === 'lost';
}

/** "web-1 (ssh://web-1/srv/www)": how a destructive action's confirmation names the host. */
export function hostPhrase(host: { name: string; url?: string }): string {
  return host.url ? `${host.name} (${host.url})` : host.name;
}
