// Runs one async task per item with a bounded number in flight (and, optionally, a bounded number of
// bytes in flight), results in item order: how replace keeps libuv's threads busy instead of waiting
// on one file call at a time. On the first failure it starts no further task, waits until every task
// already running has settled, and only then rethrows that first failure: a caller that cleans up
// after a failed stage must never race a write still in flight. Tasks that finish synchronously (the
// per-file calls are synchronous now) would chain without end through microtasks: a task is started
// on a later turn of the event loop once a time slice has run out (timeSlice.ts). Never runs a task
// twice; no IO itself.

import { timeSlicer } from './timeSlice';

export interface BoundedOptions<T> {
  /** Tasks running at once (at least 1). */
  limit: number;
  /** The weight of an item (its bytes); with `maxWeight`, tasks start only while the weights in flight stay below it. */
  weight?: (item: T) => number;
  /** One task always runs, however heavy: a single 1 GiB file is still read. */
  maxWeight?: number;
  /** Checked before each task starts; a reason thrown from it fails the run as a task failure would. */
  beforeEach?: () => void;
}

export function boundedAll<T, R>(
  items: readonly T[],
  task: (item: T, index: number) => Promise<R>,
  options: BoundedOptions<T>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  const limit = Math.max(1, Math.floor(options.limit));
  const maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY;
  const weightOf = (item: T) => Math.max(0, options.weight?.(item) ?? 0);
  return new Promise<R[]>((resolve, reject) => {
    let next = 0;
    let running = 0;
    let weightInFlight = 0;
    let failed = false;
    let failure: unknown;
    const slice = timeSlicer();
    let yielding = false;
    const finishIfDone = () => {
      if (running > 0) return;
      if (failed) reject(failure);
      else if (next >= items.length) resolve(results);
    };
    const fail = (cause: unknown) => {
      if (!failed) {
        failed = true;
        failure = cause;
      }
    };
    const launch = () => {
      while (!failed && next < items.length && running < limit) {
        if (slice.due()) {
          // The rest starts on a later turn of the event loop: others' callbacks run in between.
          if (!yielding) {
            yielding = true;
            setImmediate(() => {
              yielding = false;
              slice.restart();
              launch();
            });
          }
          return;
        }
        const item = items[next] as T;
        const weight = weightOf(item);
        if (running > 0 && weightInFlight + weight > maxWeight) break;
        try {
          options.beforeEach?.();
        } catch (cause) {
          fail(cause);
          break;
        }
        const index = next++;
        running++;
        weightInFlight += weight;
        let started: Promise<R>;
        try {
          started = task(item, index);
        } catch (cause) {
          started = Promise.reject(cause);
        }
        started
          .then((value) => {
            results[index] = value;
          }, fail)
          .finally(() => {
            running--;
            weightInFlight -= weight;
            launch();
            finishIfDone();
          });
      }
      finishIfDone();
    };
    launch();
  });
}
