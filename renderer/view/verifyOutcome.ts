// What a Verify all that was cancelled says: how far it got and what it kept. Pure: no DOM. Never
// claims more verified results than arrived: the counts come from the results the engine sent.

import { groupDigits } from '../../shared/issueCap';

export interface CancelledVerify {
  /** Verify results that arrived before the cancel: each is kept in the list. */
  kept: number;
  /** Destinations the verify set out to check (the managed ones when it was asked for all). */
  destinations: number;
  /** The engine's last progress: outputs hashed of outputs to hash. */
  outputsDone: number;
  outputsTotal: number;
}

const count = (n: number, one: string, many: string) => `${groupDigits(n)} ${n === 1 ? one : many}`;

/** "Verify cancelled after 3,400 of 10,000 destinations (41,200 of 120,000 outputs hashed); 3,400 verified results kept" */
export function cancelledVerifySentence({ kept, destinations, outputsDone, outputsTotal }: CancelledVerify): string {
  // A destination that turned managed after the list was read can make the results outnumber it.
  const of = Math.max(destinations, kept);
  const outputs = outputsTotal > 0 ? ` (${groupDigits(outputsDone)} of ${count(outputsTotal, 'output', 'outputs')} hashed)` : '';
  return (
    `Verify cancelled after ${groupDigits(kept)} of ${count(of, 'destination', 'destinations')}${outputs}; ` +
    `${count(kept, 'verified result', 'verified results')} kept`
  );
}
