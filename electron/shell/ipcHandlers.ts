// The IPC handler table, generated from the API table: one handler per method, each of which checks
// the sender frame before anything else, then hands the raw request to the session (which validates
// it with zod). Pure over its inputs: ipcBinding.ts binds these to ipcMain.

import { apiError, methodNames, type ApiResult, type MethodName } from '../../shared/api';
import { isTrustedSender, type SenderFrame } from './senderCheck';

export type IpcHandler = (frame: SenderFrame | null, request: unknown) => Promise<ApiResult<unknown>>;
export type Call = (method: MethodName, request: unknown) => Promise<ApiResult<unknown>>;

export function ipcHandlerTable(call: Call): Record<MethodName, IpcHandler> {
  const table = {} as Record<MethodName, IpcHandler>;
  for (const method of methodNames) {
    table[method] = async (frame, request) => {
      if (!isTrustedSender(frame))
        return { ok: false, error: apiError('forbidden', `${method}: refused a call from a frame that is not the app's own page`) };
      return call(method, request);
    };
  }
  return table;
}
