// Typed calls through a Session for the service tests: the answer of an ok call, or a thrown error that
// names the code and message of a refusal. Never used by the app itself.

import type { ApiResult, MethodName, RequestOf, ResponseOf } from '../../shared/api';
import type { Session } from '../service/session';

export function okValue<T>(result: ApiResult<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** A call whose answer is typed as its method's response. */
export async function callOk<M extends MethodName>(session: Session, method: M, request: RequestOf<M>): Promise<ResponseOf<M>> {
  return okValue((await session.call(method, request)) as ApiResult<ResponseOf<M>>);
}
