// The auto-verify switch and what auto-verify left undone (docs/verify-freshness.md): the setting is
// the engine's (kept with the user's preferences), read when the status bar shows and changed by its
// switch; the destinations a `verified` live refresh event skipped keep their reason here, shown as
// their stale reason until a verify of them arrives.

import type { EventOf } from '../../shared/api';
import { getClient } from '../api/client';
import { sideCallsGo } from './listPages';
import { store } from './store';

export async function refreshAutoVerify(): Promise<void> {
  await sideCallsGo();
  const answer = await getClient().invoke('autoVerifySetting', {});
  if (answer.ok) store.set({ autoVerify: answer.value });
}

/** Asks the engine to turn auto-verify on or off; the store holds what it answered (it may refuse: fixedBy). */
export async function setAutoVerify(enabled: boolean): Promise<void> {
  const before = store.get().autoVerify;
  // The switch moves at the click (a checkbox that lags the engine's answer reads as broken); the answer then settles it.
  if (before && before.fixedBy === undefined) store.set({ autoVerify: { enabled } });
  const answer = await getClient().invoke('setAutoVerify', { enabled });
  if (answer.ok) store.set({ autoVerify: answer.value });
  else
    store.set({
      ...(before ? { autoVerify: before } : {}),
      lastError: { title: 'Auto-verify was not changed', error: answer.error, at: new Date().toISOString() },
    });
}

/** Keeps the reasons of the destinations an auto-verify skipped; a destination it verified loses its old reason. */
export function noteAutoVerifySkips(event: EventOf<'liveRefresh'> & { kind: 'verified' }): void {
  store.set((state) => {
    const skipped = new Map(state.autoVerifySkipped);
    for (const read of event.entries) skipped.delete(read.entry.destination);
    for (const skip of event.skipped) skipped.set(skip.destination, skip.reason);
    return { autoVerifySkipped: skipped };
  });
}
