// The shape every subcommand of the command line shares, and the errors that map to exit codes.
// Commands return an exit code; only bugs throw something other than CliError.

export const EXIT_OK = 0;
/** Findings: invalid, drifted, conflict, refused. */
export const EXIT_FINDINGS = 1;
/** Usage or input errors. */
export const EXIT_INPUT = 2;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Colour and progress bars only on a terminal; plain when piped. */
  isTerminal: boolean;
  /** Answers a question on the terminal (confirmations); undefined when there is no terminal. */
  ask?: (question: string) => Promise<string>;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** `multiple`: the option may be given again and again; its values arrive in `lists`, in order. */
export type OptionSpec = { type: 'boolean' } | { type: 'string'; multiple?: true };

export interface Command {
  name: string;
  /** One line: `inspect DEST [--verify] [--json]`. */
  usage: string;
  summary: string;
  options: Record<string, OptionSpec>;
  /** How many positional arguments: [min, max]. */
  positionals: [number, number];
  run(
    args: { positionals: string[]; options: Record<string, string | boolean | undefined>; lists?: Record<string, string[]> },
    io: CliIo,
  ): Promise<number>;
}

/** A problem the user can fix: printed as one line, no stack, exit 2 (or the given code). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_INPUT,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
