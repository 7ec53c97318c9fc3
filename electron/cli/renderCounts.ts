// A plan's counts on the terminal: the one vocabulary of counts (shared/planCounts.ts), the same
// sentence the app shows on its confirm button, with the bytes and what stays beside it. Layout only.

import type { ReplacePlan } from '../../shared/plan';
import { countsBytesWords, keptWords, planCounts, planCountsSentence } from '../../shared/planCounts';
import type { Style } from './style';

/**
 * "Replace: create 1 file, update 2 files (the state file among them), delete 2 files" and, dim, the
 * bytes and what stays: the one vocabulary of counts (shared/planCounts.ts), as the app says it.
 */
export function countsLines(plan: ReplacePlan, style: Style): string[] {
  const counts = planCounts(plan);
  const bytes = countsBytesWords(counts);
  const kept = keptWords(counts);
  const aside = [bytes, kept].filter(Boolean).join('; ');
  return [style.bold(`${planCountsSentence(plan.mode, counts)}.`), ...(aside ? [style.dim(`(${aside})`)] : [])];
}
