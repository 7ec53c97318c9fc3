// The time "now" for words that age ("verified 2 min ago"): one clock for the whole page, ticking every
// 30 s while anything shows it, so a render stays pure (the time is state, not read during render) and
// ten thousand rows share one timer.

import { useSyncExternalStore } from 'react';

const TICK_MS = 30_000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const snapshot = () => now;

/** Milliseconds since the epoch, at most 30 s old. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
