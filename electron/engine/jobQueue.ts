// The HashPool's queue of waiting jobs: first in, first out, with a head index instead of
// Array.prototype.shift (which moves every remaining element once the array is too large for V8
// to trim in place: quadratic over a 100,000-destination scan). Taking from the front is O(1); the
// consumed front is dropped in place once it is at least half the array, so the total work stays
// linear in the number of items ever pushed. Holds items only; never looks inside them.

/** Below this many consumed items the front is left as it is: compacting tiny queues buys nothing. */
const COMPACT_AT = 1024;

export class JobQueue<T> {
  private head = 0;

  /** `items` is the array the queue keeps its items in (a test passes one that counts its accesses). */
  constructor(private readonly items: T[] = []) {}

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The next item without taking it. */
  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    // Cleared so a taken job (and its request) can be collected while the queue lives on.
    this.items[this.head] = undefined as T;
    this.head += 1;
    if (this.head === this.items.length) this.clear();
    else if (this.head >= COMPACT_AT && this.head * 2 >= this.items.length) this.compact();
    return item;
  }

  /** Puts items back at the front, in their order (jobs handed back by a cancelled batch). */
  unshiftAll(front: T[]): void {
    if (front.length === 0) return;
    const rest = this.toArray();
    this.clear();
    for (const item of front) this.items.push(item);
    for (const item of rest) this.items.push(item);
  }

  /** Drops every item for which `drop` says true, keeping the others in order. */
  removeWhere(drop: (item: T) => boolean): void {
    const kept = this.toArray().filter((item) => !drop(item));
    this.clear();
    for (const item of kept) this.items.push(item);
  }

  toArray(): T[] {
    return this.items.slice(this.head);
  }

  clear(): void {
    this.items.length = 0;
    this.head = 0;
  }

  private compact(): void {
    const { items, head } = this;
    for (let i = head; i < items.length; i += 1) items[i - head] = items[i]!;
    items.length -= head;
    this.head = 0;
  }
}
