// The IPC channel names, derived from the API table: one channel per method and one for events.
// Imported by the preload, so it must stay free of Node and of the engine.

import type { MethodName } from '../../shared/api';

export const EVENT_CHANNEL = 'inspector:event';

export function ipcChannel(method: MethodName): string {
  return `inspector:${method}`;
}
