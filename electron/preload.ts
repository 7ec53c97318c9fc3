// The whole of what the page can reach: `window.inspector.invoke(method, request)` and
// `window.inspector.on(event, listener)`. Methods and events outside the API table are refused
// here, before IPC; the main side checks again. Never exposes ipcRenderer, Node or a raw channel.

import { contextBridge, ipcRenderer } from 'electron';
import { apiError, isEventName, isMethodName, type ApiEvent, type InspectorBridge } from '../shared/api';
import { EVENT_CHANNEL, ipcChannel } from './shell/ipcChannels';

const listeners = new Map<string, Set<(data: unknown) => void>>();

ipcRenderer.on(EVENT_CHANNEL, (_event, envelope: ApiEvent) => {
  for (const listener of listeners.get(envelope?.event) ?? []) {
    try {
      listener(envelope.data);
    } catch (cause) {
      console.error(`listener for "${envelope.event}" failed`, cause);
    }
  }
});

const bridge: InspectorBridge = {
  invoke(method, request) {
    if (!isMethodName(method))
      return Promise.resolve({ ok: false, error: apiError('unknown_method', `unknown method "${String(method)}"`) });
    return ipcRenderer.invoke(ipcChannel(method), request);
  },
  on(event, listener) {
    if (!isEventName(event) || typeof listener !== 'function') throw new Error(`unknown event "${String(event)}"`);
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  },
};

contextBridge.exposeInMainWorld('inspector', bridge);
