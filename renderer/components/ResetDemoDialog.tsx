// "Reset demo workspace…": the one confirmation before the app makes its own demo afresh. It says
// what goes (backups, history, what applies added, every change: demoResetScope), that it cannot be
// undone, and refuses plainly when the folder holds what is not the demo's. Cancel is the default;
// the dialog is locked while the reset runs, then the demo is opened again.

import { useEffect, useState } from 'react';
import type { ApiError } from '../../shared/api';
import { demoResetWords, type DemoResetScopeView } from '../../shared/demoReset';
import { getClient } from '../api/client';
import { tryOpenWorkspace } from '../state/actions';
import { Callout } from './Callout';
import { Dialog } from './Dialog';
import { Icon } from './Icon';

type Step =
  { kind: 'loading' } | { kind: 'ready'; scope: DemoResetScopeView } | { kind: 'resetting' } | { kind: 'failed'; error: ApiError };

export function ResetDemoDialog({ onClose }: { onClose: () => void }) {
  const [step, setStep] = useState<Step>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    void getClient()
      .invoke('demoResetScope', {})
      .then((answer) => {
        if (live) setStep(answer.ok ? { kind: 'ready', scope: answer.value } : { kind: 'failed', error: answer.error });
      });
    return () => {
      live = false;
    };
  }, []);

  const reset = async () => {
    setStep({ kind: 'resetting' });
    const answer = await getClient().invoke('resetDemo', {});
    if (!answer.ok) return setStep({ kind: 'failed', error: answer.error });
    // Shown as any workspace just opened: the list from scratch, then its scan.
    await tryOpenWorkspace(answer.value.path);
    onClose();
  };

  const scope = step.kind === 'ready' ? step.scope : undefined;
  const blocked = scope !== undefined && scope.strangers.length > 0;
  return (
    <Dialog
      title={
        <>
          <Icon name="refresh" /> Reset demo workspace?
        </>
      }
      labelId="reset-demo-title"
      descriptionId="reset-demo-description"
      role="alertdialog"
      destructive
      locked={step.kind === 'resetting'}
      onClose={onClose}
    >
      <div id="reset-demo-description" data-testid="reset-demo-scope">
        {step.kind === 'loading' && <p role="status">Reading what the demo folder holds…</p>}
        {scope && !blocked && (
          <p>
            Makes the demo workspace in <code>{scope.dir}</code> afresh. What goes: <strong>{demoResetWords(scope)}</strong>. This cannot be
            undone.
          </p>
        )}
        {scope && blocked && (
          <Callout tone="danger" title="The demo folder holds files the demo did not write" role="alert">
            <p>
              Nothing will be removed while it holds {scope.strangers.slice(0, 5).join(', ')}
              {scope.strangers.length > 5 ? ` and ${scope.strangers.length - 5} more` : ''}: move them away first.
            </p>
          </Callout>
        )}
        {step.kind === 'resetting' && <p role="status">Resetting the demo workspace…</p>}
        {step.kind === 'failed' && (
          <Callout tone="danger" title="The demo was not reset" role="alert">
            <p>{step.error.message}</p>
          </Callout>
        )}
      </div>
      <footer>
        <button type="button" className="button" onClick={onClose} disabled={step.kind === 'resetting'} autoFocus>
          Cancel
        </button>
        <button type="button" className="button danger" onClick={() => void reset()} disabled={!scope || blocked}>
          Reset the demo workspace
        </button>
      </footer>
    </Dialog>
  );
}
