// Where a running job's one Cancel button is. A job shown in place (in its dialog or its section)
// is cancelled there; the status bar offers Cancel only for jobs shown nowhere else, so the screen
// never has two Cancel buttons for one job. A tiny external store: components mark the jobs they show.
import { useSyncExternalStore } from 'react';

const counts = new Map<string, number>();
let snapshot: ReadonlySet<string> = new Set();
const listeners = new Set<() => void>();

function changed(): void {
  snapshot = new Set(counts.keys());
  for (const listener of listeners) listener();
}

/** Marks a job as cancellable in place until the returned function is called (an effect's cleanup). */
export function holdCancelInPlace(key: string): () => void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
  changed();
  return () => {
    const left = (counts.get(key) ?? 1) - 1;
    if (left > 0) counts.set(key, left);
    else counts.delete(key);
    changed();
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The keys of the jobs whose Cancel is in place, not in the status bar. */
export function useJobsCancelledInPlace(): ReadonlySet<string> {
  return useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => snapshot,
  );
}
