// The demo reset in the session (issue 24): the open workspace, when it is the app's own demo, can be
// made afresh from the app. The service knows no demo generator (its room may not import demo/): the
// shell that starts the app hands it one as a DemoControl. Refuses while an apply runs.

import type { ResponseOf, Workspace } from '../../shared/api';
import { fail } from '../../shared/apiError';
import type { DemoResetScopeView } from '../../shared/demoReset';
import type { Result } from '../../shared/result';
import type { OpenWorkspace } from './sessionContext';

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

/** What the demo handlers need of the session. */
export interface DemoSession {
  workspace(): OpenWorkspace;
  readonly jobs: { isRunning(method: 'applyPlan'): boolean };
  /** Opens the workspace again (what the renderer then shows). */
  open(target: string): Promise<Workspace>;
}

export function demoHandlers(control: DemoControl | undefined, session: DemoSession) {
  return {
    demoResetScope: async (): Promise<ResponseOf<'demoResetScope'>> => {
      const dir = await openDemoDir(control, session.workspace().summary);
      const scope = await control!.scope(dir);
      if (!scope.ok) throw fail('refused', scope.error);
      return scope.value;
    },
    resetDemo: async (): Promise<ResponseOf<'resetDemo'>> => {
      const open = session.workspace();
      const dir = await openDemoDir(control, open.summary);
      if (session.jobs.isRunning('applyPlan'))
        throw fail('refused', 'a replace is running: wait for it to finish before resetting the demo');
      const reset = await control!.reset(dir);
      if (!reset.ok) throw fail('refused', reset.error);
      return session.open(open.opened.target);
    },
  };
}
