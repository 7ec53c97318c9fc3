// Commands the CLI prints for the operator to paste (the Undo line): each argument quoted for a POSIX
// shell, so a folder named `x $(cmd)` or `a'b` pastes as itself and runs nothing. Pure.

/** Characters that never need quoting in sh, bash, zsh or dash. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argument as sh reads it back exactly: as is when plain, else in single quotes (a `'` as `'\''`). */
export function shellQuote(argument: string): string {
  if (argument !== '' && PLAIN.test(argument)) return argument;
  return `'${argument.replace(/'/g, `'\\''`)}'`;
}

/** A command line of arguments, each quoted. */
export function shellCommand(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}
