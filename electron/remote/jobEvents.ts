// remote/: what one event an agent sent for a client's job means, checked against the job method's
// schemas in shared/api.ts as a local Session's own events are. Pure. Must never pass on a value its
// schema refuses, nor leave a job waiting on a malformed ending: a result or error event that breaks
// its schema ends the job as agent_protocol, naming the method and the field.

import { apiErrorSchema, checkOutgoing, events, jobSchemas, type ApiResult, type JobMethod } from '../../shared/api';

export type JobEventMeaning =
  | { kind: 'progress'; value: unknown }
  | { kind: 'item'; value: unknown }
  | { kind: 'end'; ending: ApiResult<unknown> }
  /** Malformed, reported and skipped. */
  | { kind: 'notice'; message: string }
  /** An event a job does not listen to. */
  | { kind: 'none' };

export function jobEventMeaning(host: string, method: JobMethod, event: string, data: unknown): JobEventMeaning {
  const what = `${host}: the agent's ${method} ${event}`;
  const payload = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const schemas = jobSchemas(method);
  if (event === 'progress') {
    const checked = checkOutgoing(events.progress, data, what);
    return checked.ok ? { kind: 'progress', value: checked.value } : { kind: 'notice', message: checked.error.message };
  }
  if (event === 'item') {
    if (!schemas.item) return { kind: 'notice', message: `${what}: ${method} has no items; skipped` };
    const checked = checkOutgoing(schemas.item, payload.item, what);
    return checked.ok ? { kind: 'item', value: checked.value } : { kind: 'notice', message: checked.error.message };
  }
  if (event === 'result') {
    const checked = checkOutgoing(schemas.result, payload.result, what, 'agent_protocol');
    return { kind: 'end', ending: checked };
  }
  if (event === 'error') {
    const checked = checkOutgoing(apiErrorSchema, payload.error, what, 'agent_protocol');
    return { kind: 'end', ending: checked.ok ? { ok: false, error: checked.value } : checked };
  }
  return { kind: 'none' };
}
