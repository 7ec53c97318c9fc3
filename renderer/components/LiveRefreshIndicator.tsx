// The status bar's word on live refresh: "watching 12 destinations", or "polling 3 (watching
// unavailable: network file system (nfs))" with the polling interval in its title. Says nothing
// while the engine has not told, or watches nothing (no workspace, the ssh agent).

import { liveRefreshSentence } from '../../shared/liveRefresh';
import { useAppState } from '../state/store';
import { Icon } from './Icon';

export function LiveRefreshIndicator() {
  const status = useAppState((state) => state.liveRefresh);
  const workspace = useAppState((state) => state.workspace);
  if (!status || !workspace) return null;
  const sentence = liveRefreshSentence(status);
  if (!sentence) return null;
  const polled = status.polling > 0 || status.workspace?.mode === 'polling';
  const title = [
    'Live refresh: a change on disk re-reads that destination, without Rescan.',
    polled ? `Polled folders are checked every ${Math.round(status.pollIntervalMs / 100) / 10} s.` : '',
    status.workspace
      ? `The workspace ${status.workspace.mode === 'watching' ? 'is watched' : `is polled (${status.workspace.reason ?? 'watching unavailable'})`}: ${status.workspace.path}`
      : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <span className={`live-refresh${polled ? ' polling' : ''}`} data-testid="live-refresh" title={title}>
      <Icon name={polled ? 'clock' : 'refresh'} />
      {sentence}
    </span>
  );
}
