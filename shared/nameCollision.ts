// Why two different names land on one file on some file system, in words: letter case (macOS and
// Windows ignore it), Unicode normalization (macOS treats "é" composed and "e" + U+0301 as one name,
// and the Kelvin sign U+212A as the letter K, its canonical equivalent), or both. Pure; never throws.

export interface NameCollision {
  /** `case_collision` when letter case is involved, `normalization_collision` when only normalization is. */
  code: 'case_collision' | 'normalization_collision';
  /** Completes "A and B …": "differ only by letter case: they collide on macOS and Windows". */
  words: string;
}

function codePoints(text: string): string[] {
  return Array.from(text);
}

function hex(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The code points where `a` and `b` differ, past their common start and end: "U+0065 U+0301". */
export function differingCodePoints(a: string, b: string): [string, string] {
  const x = codePoints(a);
  const y = codePoints(b);
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let end = 0;
  while (end < x.length - start && end < y.length - start && x[x.length - 1 - end] === y[y.length - 1 - end]) end++;
  const middle = (list: string[]) =>
    list
      .slice(start, list.length - end)
      .map(hex)
      .join(' ') || 'nothing';
  return [middle(x), middle(y)];
}

/** How two names that fold to the same key (NFC, then lower case) collide. `a` and `b` differ. */
export function describeNameCollision(a: string, b: string): NameCollision {
  const nfcA = a.normalize('NFC');
  const nfcB = b.normalize('NFC');
  const [inA, inB] = differingCodePoints(a, b);
  const characters = `(${inA} in the one, ${inB} in the other)`;
  if (nfcA === nfcB)
    return {
      code: 'normalization_collision',
      words: `are one name in two Unicode normalization forms ${characters}: they collide on macOS, which treats canonically equivalent names as the same`,
    };
  // Letter case alone only when neither name changes under normalization: the Kelvin sign, say,
  // lower-cases to "k", but Windows does not take it for one; macOS does, by normalizing it to "K".
  if (nfcA === a && nfcB === b) return { code: 'case_collision', words: 'differ only by letter case: they collide on macOS and Windows' };
  return {
    code: 'case_collision',
    words: `differ by letter case and Unicode normalization ${characters}: they collide on macOS, which ignores case and treats canonically equivalent names as the same`,
  };
}
