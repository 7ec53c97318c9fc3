// A stand-in for the Electron preload's bridge in component and state tests: answers each call with
// what the test gives (else "not in this test"), and sends the events the test emits, as the
// engine would over IPC. Tests only.

import type { ApiResult, InspectorBridge } from '../../shared/api';

export function fakeBridge(answer: (method: string, request: unknown) => ApiResult<unknown> | undefined = () => undefined) {
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  const bridge: InspectorBridge = {
    async invoke(method, request): Promise<ApiResult<unknown>> {
      return answer(method, request) ?? { ok: false, error: { code: 'not_available', message: `${method}: not in this test` } };
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => void set.delete(listener);
    },
  };
  const emit = (event: string, data: unknown) => listeners.get(event)?.forEach((listener) => listener(data));
  return { bridge, emit };
}
