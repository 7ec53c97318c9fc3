// An immutable list of fixed length kept in chunks, so that a change of a few elements copies only
// the chunks they are in (and the short list of chunks), never the whole list: the destination table
// changes a few hundred rows of 100,000 per streamed batch, and a copy of every pointer per batch was
// most of its cost (and its garbage). Old versions stay valid and unchanged (React may still be
// rendering one). Pure: no DOM. Held equal to a plain array by a property test.

const CHUNK_BITS = 10;
const CHUNK_SIZE = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_SIZE - 1;

export class ChunkedList<T> {
  /** The list as one array, made on first ask and kept: this version never changes. */
  private flat: readonly T[] | undefined;

  private constructor(
    private readonly chunks: readonly (readonly T[])[],
    readonly length: number,
  ) {}

  static from<T>(items: readonly T[]): ChunkedList<T> {
    const chunks: T[][] = [];
    for (let start = 0; start < items.length; start += CHUNK_SIZE) chunks.push(items.slice(start, start + CHUNK_SIZE));
    const list = new ChunkedList<T>(chunks, items.length);
    return list;
  }

  /** `length` elements, each `value`. */
  static filled<T>(length: number, value: T): ChunkedList<T> {
    const chunks: T[][] = [];
    for (let start = 0; start < length; start += CHUNK_SIZE) chunks.push(new Array<T>(Math.min(CHUNK_SIZE, length - start)).fill(value));
    return new ChunkedList<T>(chunks, length);
  }

  get(index: number): T {
    return this.chunks[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
  }

  /**
   * A list with the writes `edit` makes (`set(index, value)`, reading through `get` sees them), copying
   * only the chunks written; the same list when nothing was written.
   */
  edited(edit: (set: (index: number, value: T) => void, get: (index: number) => T) => void): ChunkedList<T> {
    let chunks: (readonly T[])[] | undefined;
    const copied = new Set<number>();
    const get = (index: number) => (chunks ?? this.chunks)[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
    const set = (index: number, value: T) => {
      if (!(index >= 0 && index < this.length)) throw new RangeError(`index ${index} outside a list of ${this.length}`);
      const at = index >>> CHUNK_BITS;
      chunks ??= this.chunks.slice();
      if (!copied.has(at)) {
        chunks[at] = chunks[at]!.slice();
        copied.add(at);
      }
      (chunks[at] as T[])[index & CHUNK_MASK] = value;
    };
    edit(set, get);
    return chunks ? new ChunkedList<T>(chunks, this.length) : this;
  }

  /** Every element in order, as one array (made once per version; do not change it). */
  toArray(): readonly T[] {
    if (this.flat) return this.flat;
    const flat = new Array<T>(this.length);
    let index = 0;
    for (const chunk of this.chunks) for (let i = 0; i < chunk.length; i += 1) flat[index++] = chunk[i]!;
    this.flat = flat;
    return flat;
  }
}
