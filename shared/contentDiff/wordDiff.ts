// The words that changed within a replaced line: the old line and the new one split into runs that
// are the same on both sides or changed, for highlighting. jsdiff's word diff (whitespace kept as
// tokens, so the runs put together give back each line exactly). Pure; never renders HTML.

import { diffWordsWithSpace } from 'diff';

export interface WordRun {
  text: string;
  changed: boolean;
}

export interface WordChanges {
  old: WordRun[];
  new: WordRun[];
}

/** Longer lines are shown changed as a whole: a word diff of a minified file helps nobody and costs time. */
export const WORD_DIFF_MAX_CHARS = 4000;
/** Below this share of unchanged characters the lines are not edits of each other: no highlighting. */
const MIN_COMMON_SHARE = 0.3;

function push(runs: WordRun[], text: string, changed: boolean): void {
  const last = runs.at(-1);
  if (last && last.changed === changed) last.text += text;
  else runs.push({ text, changed });
}

/** The changed words of a line pair, or undefined when highlighting words would not help (too long, or too different). */
export function wordChanges(oldText: string, newText: string): WordChanges | undefined {
  if (oldText.length > WORD_DIFF_MAX_CHARS || newText.length > WORD_DIFF_MAX_CHARS) return undefined;
  if (oldText === newText) return { old: [{ text: oldText, changed: false }], new: [{ text: newText, changed: false }] };
  const changes = diffWordsWithSpace(oldText, newText, { timeout: 50 });
  if (changes === undefined) return undefined;
  const result: WordChanges = { old: [], new: [] };
  let common = 0;
  for (const change of changes) {
    if (!change.added) push(result.old, change.value, change.removed);
    if (!change.removed) push(result.new, change.value, change.added);
    if (!change.added && !change.removed) common += change.value.length;
  }
  if (common < MIN_COMMON_SHARE * Math.max(oldText.length, newText.length)) return undefined;
  return result;
}
