// Typed calls through a Session for the service tests: the answer of an ok call, or a thrown error that
// names the code and message of a refusal. Never used by the app itself.

import type { ApiEvent, ApiResult, MethodName, RequestOf, ResponseOf } from '../../shared/api';
import type { Session } from '../service/session';

export function okValue<T>(result: ApiResult<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** A call whose answer is typed as its method's response. */
export async function callOk<M extends MethodName>(session: Session, method: M, request: RequestOf<M>): Promise<ResponseOf<M>> {
  return okValue((await session.call(method, request)) as ApiResult<ResponseOf<M>>);
}

/** Whether the event ends that job: its result or its error. */
export function endsJob(event: ApiEvent, job: string): boolean {
  return (event.event === 'result' || event.event === 'error') && event.data.job === job;
}

/**
 * The job's ending event. Looks first among the events recorded so far, since a test that awaited
 * something else after starting the job may have let its end go by, then waits for the next.
 */
export function jobEnd(session: Session, job: string, recorded: readonly ApiEvent[] = []): Promise<ApiEvent> {
  const ended = recorded.find((event) => endsJob(event, job));
  if (ended) return Promise.resolve(ended);
  return new Promise((resolve) => {
    const off = session.onEvent((event) => {
      if (!endsJob(event, job)) return;
      off();
      resolve(event);
    });
  });
}

/** The items of one job among recorded events, in order: its `items` events' batches, flattened. */
export function jobItems(recorded: readonly ApiEvent[], job: string): unknown[] {
  return recorded.flatMap((event): unknown[] => (event.event === 'items' && event.data.job === job ? event.data.items : []));
}
