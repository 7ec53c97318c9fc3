// Server data for one API method: loading, value and error, always all three, so every view renders
// each state. A newer call supersedes an older one still in flight (its answer is dropped).

import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import type { ApiError, MethodName, RequestOf, ResponseOf } from '../../shared/api';
import { getClient } from '../api/client';

export type CallState<T> = { status: 'idle' } | { status: 'loading' } | { status: 'ok'; value: T } | { status: 'error'; error: ApiError };

export interface ApiCall<M extends MethodName> {
  state: CallState<ResponseOf<M>>;
  run: (request: RequestOf<M>) => Promise<CallState<ResponseOf<M>>>;
  reset: () => void;
}

/** Call on demand (a button). */
export function useApiCall<M extends MethodName>(method: M): ApiCall<M> {
  const [state, setState] = useState<CallState<ResponseOf<M>>>({ status: 'idle' });
  const generation = useRef(0);
  useEffect(() => () => void (generation.current += 1), []);
  const run = useCallback(
    async (request: RequestOf<M>) => {
      const mine = ++generation.current;
      setState({ status: 'loading' });
      const answer = await getClient().invoke(method, request);
      const next: CallState<ResponseOf<M>> = answer.ok ? { status: 'ok', value: answer.value } : { status: 'error', error: answer.error };
      if (mine === generation.current) setState(next);
      return next;
    },
    [method],
  );
  const reset = useCallback(() => {
    generation.current += 1;
    setState({ status: 'idle' });
  }, []);
  return { state, run, reset };
}

/** Call whenever the request changes (`key` says when); undefined request means nothing to load yet. */
export function useApiQuery<M extends MethodName>(method: M, request: RequestOf<M> | undefined, key: string): ApiCall<M> {
  const call = useApiCall(method);
  const { run } = call;
  // The request as of the render that changed `key`, without making the request object a dependency:
  // callers build a fresh one each render, and only `key` says when it means something new.
  const load = useEffectEvent(() => {
    if (request !== undefined) void run(request);
  });
  useEffect(() => {
    load();
  }, [run, key]);
  return call;
}
