// An in-process Session as a bridge of the one client (shared/apiClient.ts): what the command line
// drives, as the renderer drives the Session over IPC or HTTP and a client over ssh drives an agent's.
// Every call goes through `session.call` (the request parsed, the answer checked against the table).

import type { InspectorBridge } from '../../shared/api';
import type { Session } from './session';

export function sessionBridge(session: Pick<Session, 'call' | 'onEvent'>): InspectorBridge {
  return {
    invoke: (method, request) => session.call(method, request),
    on: (event, listener) =>
      session.onEvent((sent) => {
        if (sent.event === event) listener(sent.data);
      }),
  };
}
