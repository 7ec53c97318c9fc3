// The CLI's way to write to stdout and stderr when the reader may go away: `scan … | head -1` closes
// the pipe after one line, and the next write fails with EPIPE. Node reports that as an 'error'
// event, which, unheard, ends the process with a stack trace. Here the stream is marked closed, the
// rest of the output is dropped quietly, and the command runs to its end: a replace half applied
// must never be cut short because nobody reads its report any more.
// Must never throw from a write, nor print a stack trace.

import type { Writable } from 'node:stream';

export interface GuardedOutput {
  write: (text: string) => void;
  /** False once the reader has gone (EPIPE) or the stream failed otherwise. */
  readonly isOpen: boolean;
}

const CLOSED_READER = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ECONNRESET']);

/**
 * `report` hears a failure that is not the reader going away (a full disk behind `> file`), once.
 * Given a function, the stream is opened by the first write: process.stderr is a pipe's stream that
 * a command printing nothing on it need not create (~1.5 ms of a cold start).
 */
export function guardOutput(stream: Writable | (() => Writable), report: (message: string) => void = () => {}): GuardedOutput {
  let open = true;
  let opened: Writable | undefined;
  const openStream = (): Writable => {
    if (opened) return opened;
    opened = typeof stream === 'function' ? stream() : stream;
    opened.on('error', (cause: NodeJS.ErrnoException) => {
      if (!open) return;
      open = false;
      if (!CLOSED_READER.has(cause.code ?? ''))
        report(`cannot write the output any more (${cause.code ?? cause.message}); the rest is dropped`);
    });
    return opened;
  };
  if (typeof stream !== 'function') openStream();
  return {
    get isOpen() {
      return open;
    },
    write(text) {
      if (!open) return;
      const output = openStream();
      if (!output.destroyed) output.write(text);
    },
  };
}
