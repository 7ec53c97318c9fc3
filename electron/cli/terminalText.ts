// What the command line may send to a terminal. State ids, paths, file names and messages come from
// files that anyone may have written; raw, an ESC, CR or OSC sequence in them would move the cursor,
// rewrite a line, set the window title or write the clipboard, and a bidi override would make a
// path read as another. So:
// - `printable` is the one escaping function: every renderer passes each value through it, which
//   turns every control character (C0, DEL, C1) and every bidi control into a visible escape
//   (`\x1b`, `\n`, `\u202e`). A value can never start a new line or a sequence.
// - The CLI's own styling (colours, the progress line) never writes a control character either: it
//   writes marks from the private-use area, which `toTerminal` alone turns into the few sequences
//   it allows (SGR colour, erase line, carriage return), after escaping everything else but the line
//   breaks. runCli applies it to every text output, as a net under the renderers; JSON is left as is.
// Must never let a control character through that is not one of those marks.

/** Stands for ESC in the CLI's own styling. */
export const ESC_MARK = '\ue01b';
/** Stands for CR in the CLI's own progress line; only ever just before an erase-line. */
export const CR_MARK = '\ue00d';

// C0, DEL and C1; the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the
// marks (U+200E, U+200F, U+061C); and the two private marks above, so that a value can never fake one.
const UNSAFE_SOURCE = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\ue01b\\ue00d';
const UNSAFE = new RegExp(`[${UNSAFE_SOURCE}]`, 'g');
const UNSAFE_TEST = new RegExp(`[${UNSAFE_SOURCE}]`);
// The styling marks toTerminal turns into real sequences (an SGR colour, or an erase-line with the
// carriage return before it: a CR alone is never ours), then line breaks, then anything unsafe.
const OUTPUT_TOKEN = new RegExp(`(${CR_MARK}${ESC_MARK}\\[K|${ESC_MARK}\\[[0-9;]*m)|(\\n)|([${UNSAFE_SOURCE}])`, 'g');

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** A value as it may appear in text output: every control and bidi character made visible. */
export function printable(value: string | number): string {
  const text = String(value);
  return UNSAFE_TEST.test(text) ? text.replace(UNSAFE, escapeOne) : text;
}

/**
 * Rendered text as it may reach the terminal: line breaks kept, the styling marks made real (when
 * `styled`; else dropped), and every other control or bidi character escaped.
 */
export function toTerminal(text: string, styled = true): string {
  return text.replace(OUTPUT_TOKEN, (token, style: string | undefined, newline: string | undefined) => {
    if (style) return styled ? style.replace(CR_MARK, '\r').replace(ESC_MARK, '\u001b') : '';
    if (newline) return '\n';
    return escapeOne(token);
  });
}

/** True when text holds a character `printable` would escape (for the property tests). */
export function hasUnsafeCharacter(text: string): boolean {
  return UNSAFE_TEST.test(text);
}
