// A one-line progress bar for long commands, drawn on stderr and only on a terminal: piped output
// and CI logs stay clean. Redraws at most every 100 ms, so ten thousand updates cost nothing.
// Writes its carriage return and erase-line as marks (terminalText.ts), which runCli makes real.

import { CR_MARK, ESC_MARK } from './terminalText';
import { formatBytes } from '../../shared/byteSize';

/** Back to the start of the line and erase it: the marks runCli turns into `\r\x1b[K`. */
export const ERASE_LINE = `${CR_MARK}${ESC_MARK}[K`;

export interface ProgressStep {
  done: number;
  total: number;
  bytes?: number;
}

export interface ProgressBar {
  update(label: string, step: ProgressStep): void;
  /** Erases the bar, so the next line starts clean. */
  clear(): void;
}

const WIDTH = 28;
const REDRAW_EVERY_MS = 100;

// One wording of sizes for the CLI and the app (shared/byteSize.ts).
export { formatBytes };

export function renderProgress(label: string, step: ProgressStep): string {
  const ratio = step.total === 0 ? 1 : Math.min(1, step.done / step.total);
  const filled = Math.round(ratio * WIDTH);
  const bytes = step.bytes === undefined ? '' : `  ${formatBytes(step.bytes)}`;
  return `${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}%  ${step.done.toLocaleString('en-US')}/${step.total.toLocaleString('en-US')}${bytes}`;
}

/** A bar that writes through `write` when enabled, and does nothing at all otherwise. */
export function createProgressBar(
  write: (text: string) => void,
  enabled: boolean,
  now: () => number = () => performance.now(),
): ProgressBar {
  if (!enabled) return { update: () => undefined, clear: () => undefined };
  let lastDrawMs = -Infinity;
  let drawn = false;
  return {
    update(label, step) {
      const at = now();
      if (at - lastDrawMs < REDRAW_EVERY_MS && step.done !== step.total) return;
      lastDrawMs = at;
      drawn = true;
      write(`${ERASE_LINE}${renderProgress(label, step)}`);
    },
    clear() {
      if (drawn) write(ERASE_LINE);
      drawn = false;
    },
  };
}
