// operations/: may be imported by service/ and cli/. The expected bytes of a recorded output, for the
// content diff. Waits for replace/expectedBytes.ts (branch h7), which proves them from the source
// bundle; until that is merged, it says plainly that they are not available.

import { problem, type Problem, type Result } from '../../shared/result';
import type { OutputRecord, State } from '../../shared/stateSchema';

export async function expectedBytesOf(
  _sourcePath: string,
  _state: State,
  record: OutputRecord,
): Promise<Result<{ bytes: Buffer; provenance: string }, Problem>> {
  return {
    ok: false,
    error: problem(
      'not_wired',
      `the expected bytes of "${record.path}" are not available: proving them from the source is not wired in yet`,
    ),
  };
}
