// Reconnects a lost host by itself (issue 28): after a connection that worked is lost, the host is
// tried again after 1 s, 2 s, 4 s … at most 60 s (shared/reconnectBackoff.ts), until it connects, is
// removed or edited, or the workspace closes; "Reconnect now" tries at once and keeps the count. A
// host that never connected is not retried: its settings are what is wrong (Edit host). Keeps when
// each host last connected and when its next try starts, which its state carries to the page. The
// clock is injected, so the tests run the schedule without waiting.

import type { HostState } from '../../shared/hostState';
import { reconnectDelayMs } from '../../shared/reconnectBackoff';

export interface ReconnectClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** In [0, 1): the jitter of each wait. */
  random(): number;
}

export const systemClock: ReconnectClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => {
    const timer = setTimeout(run, ms);
    // A pending retry never keeps a CLI or a test process alive.
    timer.unref?.();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  random: () => Math.random(),
};

interface Track {
  lastConnected?: string;
  /** Set once a connection that worked was lost: the host is retried until it connects again. */
  retrying: boolean;
  retries: number;
  /** Why it was lost, then why the last try failed: said while a try is under way. */
  failure?: HostState['failure'];
  retryAt?: number;
  timer?: unknown;
}

export class HostReconnector {
  private readonly tracks = new Map<string, Track>();

  constructor(
    private readonly reconnect: (name: string) => void,
    private readonly clock: ReconnectClock = systemClock,
  ) {}

  /** Follows a host's new state: schedules the next try after a loss or a failed retry. */
  observe(state: HostState): void {
    const track = this.track(state.name);
    if (state.state === 'connected') {
      this.stop(track);
      Object.assign(track, { lastConnected: state.since, retrying: false, retries: 0 });
    } else if (state.state === 'connecting') {
      this.stop(track);
    } else if (state.state === 'lost' || (state.state === 'failed' && track.retrying)) {
      if (track.retrying && state.state === 'failed') track.retries++;
      track.retrying = true;
      track.failure = state.failure;
      this.schedule(state.name, track);
    }
  }

  /** "Reconnect now": the waiting try starts at once (its count kept, so a host still down waits longer next). */
  now(name: string): void {
    const track = this.tracks.get(name);
    if (track) this.stop(track);
    this.reconnect(name);
  }

  /**
   * The state as the page sees it: when it last connected, its countdown. While it is being retried
   * it stays "lost" (a try under way, or one that failed, with why), never flickering through
   * "connecting…" and "failed" each time: its settings were right, its connection is what went.
   */
  decorate(state: HostState): HostState {
    const track = this.tracks.get(state.name);
    if (!track) return state;
    const retrying = track.retrying && state.state !== 'connected';
    return {
      ...state,
      ...(retrying ? { state: 'lost' as const, ...(track.failure ? { failure: track.failure } : {}) } : {}),
      ...(track.lastConnected !== undefined ? { lastConnected: track.lastConnected } : {}),
      ...(track.retryAt !== undefined ? { retryAt: new Date(track.retryAt).toISOString() } : {}),
      ...(track.retrying ? { retries: track.retries } : {}),
    };
  }

  /** A host removed, or edited (it starts again as a new host). */
  forget(name: string): void {
    const track = this.tracks.get(name);
    if (track) this.stop(track);
    this.tracks.delete(name);
  }

  close(): void {
    for (const name of [...this.tracks.keys()]) this.forget(name);
  }

  private track(name: string): Track {
    let track = this.tracks.get(name);
    if (!track) this.tracks.set(name, (track = { retrying: false, retries: 0 }));
    return track;
  }

  private stop(track: Track): void {
    if (track.timer !== undefined) this.clock.clearTimeout(track.timer);
    track.timer = undefined;
    track.retryAt = undefined;
  }

  private schedule(name: string, track: Track): void {
    this.stop(track);
    const wait = reconnectDelayMs(track.retries, this.clock.random());
    track.retryAt = this.clock.now() + wait;
    track.timer = this.clock.setTimeout(() => {
      track.timer = undefined;
      track.retryAt = undefined;
      if (this.tracks.get(name) === track) this.reconnect(name);
    }, wait);
  }
}
