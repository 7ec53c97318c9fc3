// remote/: what one event an agent sent for a client's job means, checked against the job method's
// schemas in shared/api.ts as a local Session's own events are. Pure. Must never pass on a value its
// schema refuses (of an `items` event, the items that pass go on, each bad one reported), nor leave a job waiting on a malformed ending: a result or error event that breaks
// its schema ends the job as agent_protocol, naming the method and the field.

import { apiErrorSchema, checkOutgoing, events, jobSchemas, type ApiResult, type JobMethod } from '../../shared/api';

export type JobEventMeaning =
  | { kind: 'progress'; value: unknown }
  /** The items of one `items` event that pass their schema, in order; `notices` for each that did not. */
  | { kind: 'items'; values: unknown[]; notices: string[] }
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
  if (event === 'items') {
    if (!schemas.item) return { kind: 'notice', message: `${what}: ${method} has no items; skipped` };
    const items: unknown = payload.items;
    if (!Array.isArray(items)) return { kind: 'notice', message: `${what} is malformed at items: expected an array; skipped` };
    const values: unknown[] = [];
    const notices: string[] = [];
    items.forEach((item: unknown, index) => {
      const checked = checkOutgoing(schemas.item!, item, `${host}: the agent's ${method} item ${index + 1} of ${items.length}`);
      if (checked.ok) values.push(checked.value);
      else notices.push(checked.error.message);
    });
    return { kind: 'items', values, notices };
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
