// What resetting the demo workspace removes, as the API tells the app before it asks the operator
// (electron/demo/demoReset.ts reads it from the disk). Shape and words only.

import { z } from 'zod';

export const demoResetScopeSchema = z.object({
  /** The demo folder. */
  dir: z.string(),
  /** Backups kept in the demo's backups folder. */
  backups: z.number(),
  /** Records in its history journal; null when too large to count. */
  historyRecords: z.number().nullable(),
  /** Paths applies added inside the demo's own destinations. */
  addedInDestinations: z.number(),
  /** Paths that are not the demo's: while any is there, a reset is refused and removes nothing. */
  strangers: z.array(z.string()),
});
export type DemoResetScopeView = z.infer<typeof demoResetScopeSchema>;

const counted = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** "2 backups, its history (5 records), 1 path added to its destinations, and every change made to the demo". */
export function demoResetWords(scope: DemoResetScopeView): string {
  const history = scope.historyRecords === null ? 'its history' : `its history (${counted(scope.historyRecords, 'record')})`;
  return `${counted(scope.backups, 'backup')}, ${history}, ${counted(scope.addedInDestinations, 'path')} added to its destinations, and every change made to its destinations and sources`;
}
