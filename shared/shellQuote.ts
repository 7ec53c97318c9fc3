// A word for a POSIX shell, for every command line the tool prints for an operator to paste (advice
// after a failure, an undo line). Pure. Must never leave a character the shell would read as syntax
// (`$`, backquote, `;`, space, glob, quote, line break) outside single quotes.

/** Characters that mean nothing to sh anywhere in a word: left bare, so common words stay readable. */
const PLAIN = /^[A-Za-z0-9@%+=:,./_-]+$/;

/** `word` as sh reads it back exactly: bare when plain, else in single quotes (a `'` as `'\''`). */
export function shellQuote(word: string): string {
  if (PLAIN.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line of words, each quoted. */
export function shellCommand(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}
