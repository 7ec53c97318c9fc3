// The shape of one method of the API table (shared/api.ts) and the request and response shapes
// many methods share; each domain's methods (shared/api*Methods.ts) are written with these.

import { z } from 'zod';
import { handle } from './apiEntries';

export interface MethodSpec {
  summary: string;
  request: z.ZodType;
  response: z.ZodType;
  /**
   * Long work: the response is `{job}`; progress, items and a result or an error follow as events.
   * `resultTellsCancel`: the result says itself whether a cancel stopped the work (an apply that was
   * past its point of no return when the cancel came finished, and must say so, never `cancelled`).
   */
  job?: { item?: z.ZodType; result: z.ZodType; resultTellsCancel?: true };
  /** Only the Electron shell implements it; the browser host answers not_available. */
  electronOnly?: boolean;
}

export const spec = <S extends MethodSpec>(entry: S) => entry;

/** The answer of a job method: the handle its events carry. */
export const jobStarted = z.object({ job: handle });
export const empty = z.strictObject({});
