// Lets long runs of synchronous file calls share the event loop. Replace does its per-file work
// with synchronous calls (a quarter of the CPU of fs.promises, no thread hops: docs/performance.md),
// which would otherwise hold the main thread for the whole of a 10,000-file step: the app's IPC,
// the browser host's event stream and a cancel would all wait. A slicer yields to the event loop
// (setImmediate) once a slice has run for SLICE_MS, so no step holds it longer than that, plus one
// file call. No IO itself.

/** Longest stretch of synchronous work between two turns of the event loop. */
export const SLICE_MS = 20;

export interface TimeSlicer {
  /** Whether the current slice has run out (the caller should yield now). */
  due(): boolean;
  /** Resolves at once within a slice; after the slice has run out, on the next turn of the event loop. */
  yield(): Promise<void>;
  /** Marks the start of a new slice (after the caller yielded by other means). */
  restart(): void;
}

export function timeSlicer(sliceMs = SLICE_MS, now: () => number = () => performance.now()): TimeSlicer {
  let started = now();
  return {
    due: () => now() - started >= sliceMs,
    async yield() {
      if (now() - started < sliceMs) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
      started = now();
    },
    restart() {
      started = now();
    },
  };
}
