// Reading a destination's state for display: the typed state when valid, counts, and the source
// manifest summary. Pure; the engine already validated, this only shapes what the views show.

import type { Issue } from '../../shared/issues';
import { stateSchema } from '../../shared/documentSchemas';
import type { State } from '../../shared/stateSchema';

export function readState(stateJson: Record<string, unknown> | undefined): State | undefined {
  if (!stateJson) return undefined;
  const parsed = stateSchema.safeParse(stateJson);
  return parsed.success ? parsed.data : undefined;
}

export interface StateCounts {
  outputs: number;
  generated: number;
  copied: number;
  outputBytes: number;
  manifestFiles: number;
  manifestBytes: number;
}

export function stateCounts(state: State): StateCounts {
  let generated = 0;
  let outputBytes = 0;
  for (const output of state.outputs) {
    if (output.kind === 'generated') generated++;
    outputBytes += output.size;
  }
  const files = state.source.manifest.files;
  return {
    outputs: state.outputs.length,
    generated,
    copied: state.outputs.length - generated,
    outputBytes,
    manifestFiles: files.length,
    manifestBytes: files.reduce((sum, file) => sum + file.size, 0),
  };
}

export function splitIssues(issues: readonly Issue[]): { errors: Issue[]; warnings: Issue[] } {
  return { errors: issues.filter((issue) => issue.severity === 'error'), warnings: issues.filter((issue) => issue.severity === 'warning') };
}

/** Only https links open outside the app; anything else is shown as text. */
export function isOpenableLink(url: string | undefined): url is string {
  if (!url) return false;
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}
