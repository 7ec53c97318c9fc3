// What the content diff needs to know of raw bytes, decided once for the CLI and the renderer: is it
// text (UTF-8, no NUL) that may be diffed line by line (at most 2 MiB), and where two byte strings
// first differ. Pure: no Node, no DOM.

/** Past this size (either side) no line diff is made: sizes, hashes and the first differing offset instead. */
export const TEXT_DIFF_LIMIT_BYTES = 2 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as text, or undefined when they are binary: a NUL byte (as git judges), or not UTF-8. */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The first offset at which the two differ (the shorter one's length when it is a prefix), or undefined when equal. */
export function firstDifferingOffset(a: Uint8Array, b: Uint8Array, startAt = 0): number | undefined {
  const shorter = Math.min(a.length, b.length);
  for (let index = 0; index < shorter; index++) if (a[index] !== b[index]) return startAt + index;
  return a.length === b.length ? undefined : startAt + shorter;
}
