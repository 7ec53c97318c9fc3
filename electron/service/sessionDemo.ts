// The demo reset in the session (issue 24): the open workspace, when it is the app's own demo, can be
// made afresh from the app. The service knows no demo generator (its room may not import demo/): the
// shell that starts the app hands it one as a DemoControl. Refuses while an apply runs.

import type { Workspace } from '../../shared/api';
import { fail } from '../../shared/apiError';
import type { DemoResetScopeView } from '../../shared/demoReset';
import type { Result } from '../../shared/result';

/** What the session may ask of the demo generator (electron/demo/demoControl.ts). */
export interface DemoControl {
  /** Whether the folder holds a demo this generator wrote (its marker reads). */
  isDemo(dir: string): Promise<boolean>;
  scope(dir: string): Promise<Result<DemoResetScopeView, string>>;
  /** Makes the demo in `dir` afresh (its size as its marker records); refuses with a sentence, removing nothing. */
  reset(dir: string): Promise<Result<void, string>>;
}

/** The demo folder of the open workspace, or not_available when it is not the app's demo. */
export async function openDemoDir(control: DemoControl | undefined, workspace: Workspace): Promise<string> {
  if (!control || workspace.kind !== 'file' || !(await control.isDemo(workspace.root)))
    throw fail('not_available', 'the open workspace is not the demo workspace the app wrote: there is nothing to reset');
  return workspace.root;
}
