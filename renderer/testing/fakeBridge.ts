// A stand-in for the Electron preload's bridge in component and state tests: answers each call with
// what the test gives (else "not in this test"), and sends the events the test emits, as the
// engine would over IPC. Tests only.

import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ApiResult, InspectorBridge } from '../../shared/api';

/** What the test answers a call with; undefined: "not in this test". */
export type BridgeAnswer = (method: string, request: unknown) => ApiResult<unknown> | undefined | Promise<ApiResult<unknown> | undefined>;

export interface BridgeCall {
  method: string;
  request: unknown;
}

export function fakeBridge(answer: BridgeAnswer = () => undefined) {
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  const bridge: InspectorBridge = {
    async invoke(method, request): Promise<ApiResult<unknown>> {
      return (await answer(method, request)) ?? { ok: false, error: { code: 'not_available', message: `${method}: not in this test` } };
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

/**
 * A fake bridge as the page's `window.inspector` for the tests of the file that calls this, at its
 * top level: the page's one client is made from it at its first call, so it stays for the whole file
 * and goes after it. `calls` records every call, in order, and is emptied after each test.
 */
export function installFakeBridge(answer: BridgeAnswer = () => undefined) {
  const calls: BridgeCall[] = [];
  const fake = fakeBridge((method, request) => {
    calls.push({ method, request });
    return answer(method, request);
  });
  beforeAll(() => {
    window.inspector = fake.bridge;
  });
  afterAll(() => {
    delete window.inspector;
  });
  afterEach(() => {
    calls.length = 0;
  });
  return { ...fake, calls };
}
