// The demo generator as the session asks it (service/sessionDemo.ts's DemoControl, matched by shape:
// the service may not import demo/): is this folder our demo, what would a reset remove, and the
// reset itself, with the size the marker records. The shells that start the app hand it over.

import type { DemoResetScopeView } from '../../shared/demoReset';
import type { Result } from '../../shared/result';
import { createDemoWorkspace } from './demo';
import { preparePrivateFolder } from './demoFolder';
import { readDemoMarker } from './demoMarker';
import { demoResetScope } from './demoReset';

export const demoControl = {
  async isDemo(dir: string): Promise<boolean> {
    return (await readDemoMarker(dir)).kind === 'ok';
  },

  async scope(dir: string): Promise<Result<DemoResetScopeView, string>> {
    // The same checks a reset makes first: a folder that is not private and ours is never described as resettable.
    const folder = await preparePrivateFolder(dir);
    if (!folder.ok) return folder;
    const marker = await readDemoMarker(dir);
    if (marker.kind !== 'ok') return { ok: false, error: marker.kind === 'bad' ? marker.message : `${dir} holds no demo` };
    const { backups, historyRecords, addedInDestinations, strangers } = await demoResetScope(dir, marker.marker);
    return { ok: true, value: { dir, backups, historyRecords: historyRecords ?? null, addedInDestinations, strangers } };
  },

  async reset(dir: string): Promise<Result<void, string>> {
    const marker = await readDemoMarker(dir);
    if (marker.kind !== 'ok') return { ok: false, error: marker.kind === 'bad' ? marker.message : `${dir} holds no demo` };
    const made = await createDemoWorkspace(dir, { reset: true, large: marker.marker.large });
    return made.ok ? { ok: true, value: undefined } : made;
  },
};
