// The status bar's auto-verify switch (docs/verify-freshness.md): on, a destination that changed on
// disk is verified again by itself; off, its result stays "stale — verify again". Kept by the engine
// with the user's preferences. Disabled, with the reason in its title, where it cannot move (the
// environment turned it off for this run; nothing is watched).

import { useEffect } from 'react';
import { refreshAutoVerify, setAutoVerify } from '../state/autoVerifyActions';
import { useAppState } from '../state/store';

export function AutoVerifySwitch() {
  const workspace = useAppState((state) => state.workspace);
  const setting = useAppState((state) => state.autoVerify);
  useEffect(() => {
    if (workspace) void refreshAutoVerify();
  }, [workspace]);
  if (!workspace || !setting) return null;
  const title =
    setting.fixedBy ??
    (setting.enabled
      ? 'Auto-verify is on: a destination that changes on disk is verified again by itself. Uncheck to leave it stale until you verify.'
      : 'Auto-verify is off: a destination that changes on disk turns stale until you verify it. Check to verify it again by itself.');
  return (
    <label className="auto-verify-switch" title={title}>
      <input
        type="checkbox"
        checked={setting.enabled}
        disabled={setting.fixedBy !== undefined}
        onChange={(event) => void setAutoVerify(event.currentTarget.checked)}
      />
      auto-verify
    </label>
  );
}
