// Streamed job items applied to the store in batches, so 100,000 scan results cost ~100 renders, not
// 100,000; items that go into a list not shown yet wait for it. Pure timing: no store, no API.

/** How often streamed items are applied: each apply renders the list once. */
const BATCH_INTERVAL_MS = 120;

/**
 * At most this many items in one apply: the rows that waited for the list (heldUntil) go in a task
 * each per slice, so no one task derives and renders tens of thousands of rows.
 */
const MAX_BATCH_ITEMS = 1000;

/** `heldUntil`: items wait for it (the list they go into is not shown yet), then go in, or are dropped on false. */
export function batcher<T>(
  apply: (items: T[]) => void,
  heldUntil?: Promise<boolean>,
): { push: (item: T) => void; drain: () => Promise<void> } {
  let pending: T[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let first = true;
  let held = heldUntil !== undefined;
  let dropped = false;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (held || pending.length === 0) return;
    if (pending.length <= MAX_BATCH_ITEMS) {
      const items = pending;
      pending = [];
      apply(items);
      return;
    }
    apply(pending.slice(0, MAX_BATCH_ITEMS));
    pending = pending.slice(MAX_BATCH_ITEMS);
    timer = setTimeout(flush, 0);
  };
  void heldUntil?.then((applies) => {
    held = false;
    dropped = !applies;
    if (dropped) pending = [];
    // In a task of its own: the list just shown paints first, then the rows that waited for it.
    else if (pending.length > 0) {
      first = false;
      timer = setTimeout(flush, 0);
    }
    // With none waiting, the first item to come still shows at once, not a batch interval later.
  });
  return {
    push(item) {
      if (dropped) return;
      pending.push(item);
      if (held || timer !== undefined) return;
      // The first item shows at once (first rows fast); the rest gather into batches.
      if (first) {
        first = false;
        queueMicrotask(flush);
      } else timer = setTimeout(flush, BATCH_INTERVAL_MS);
    },
    /** Applies what is pending now (a slice per task), resolving once it is all in. */
    async drain() {
      await heldUntil;
      flush();
      while (pending.length > 0) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        flush();
      }
    },
  };
}
