// The bottom bar: running jobs with progress and Cancel, how the workspace is watched (live refresh),
// and the last error with its details.

import { useState } from 'react';
import { groupDigits } from '../../shared/issueCap';
import { hasWorkspaceChanges, workspaceChangesText } from '../../shared/workspaceReload';
import { dismissError } from '../state/actions';
import { useAppState } from '../state/store';
import { healthSummary } from '../view/health';
import { meaningsIn } from '../view/markMeaning';
import { Dialog } from './Dialog';
import { Icon } from './Icon';
import { JobProgress } from './JobProgress';
import { LiveRefreshIndicator } from './LiveRefreshIndicator';
import { AutoVerifySwitch } from './AutoVerifySwitch';

export function StatusBar() {
  const jobs = useAppState((state) => state.jobs);
  const lastError = useAppState((state) => state.lastError);
  const counts = useAppState((state) => state.destinationTable.scannedCount);
  const total = useAppState((state) => state.workspace?.destinations.length ?? 0);
  const transport = useAppState((state) => state.transport);
  const version = useAppState((state) => state.version);
  const lastReload = useAppState((state) => state.lastReload);
  const notice = useAppState((state) => state.notice);
  // Both counts are kept by the table as rows change: this is a few additions, not a walk over the rows.
  const statusCounts = useAppState((state) => state.destinationTable.statusCounts);
  const healthCounts = useAppState((state) => state.destinationTable.healthCounts);
  const summary = healthSummary(statusCounts, healthCounts);
  const [showDetails, setShowDetails] = useState(false);

  return (
    <footer className="statusbar" aria-label="Status">
      <div className="jobs" role="status" aria-live="polite">
        {jobs.length === 0 ? (
          <IdleLine
            text={[
              notice ?? 'Ready',
              summary ?? (total > 0 ? `${groupDigits(counts)} of ${groupDigits(total)} scanned` : ''),
              lastReload && hasWorkspaceChanges(lastReload.changes)
                ? `workspace read again: ${workspaceChangesText(lastReload.changes)}`
                : '',
              version ? `v${version}${transport === 'http' ? ' · browser host' : ''}` : '',
            ]
              .filter(Boolean)
              .join(' · ')}
          />
        ) : (
          jobs.map((job) => <JobProgress key={job.key} job={job} compact cancel="statusbar" />)
        )}
      </div>
      <LiveRefreshIndicator />
      <AutoVerifySwitch />
      {lastError && (
        <div className="last-error" role="alert">
          <Icon name="alert" />
          <span title={lastError.error.message}>
            {lastError.title}: {lastError.error.message}
          </span>
          <button type="button" className="button small" onClick={() => setShowDetails(true)}>
            Details
          </button>
          <button type="button" className="button small" onClick={dismissError} aria-label="Dismiss the error">
            <Icon name="x" />
          </button>
        </div>
      )}
      {showDetails && lastError && (
        <Dialog title={lastError.title} labelId="error-title" onClose={() => setShowDetails(false)}>
          <p>{lastError.error.message}</p>
          <pre className="error-details">
            {JSON.stringify({ code: lastError.error.code, at: lastError.at, details: lastError.error.details }, null, 2)}
          </pre>
          <footer>
            <button type="button" className="button" onClick={() => setShowDetails(false)} data-autofocus>
              Close
            </button>
          </footer>
        </Dialog>
      )}
    </footer>
  );
}

/** The status line, its words explained in its tooltip ("not verifiable", "stale"). */
function IdleLine({ text }: { text: string }) {
  const meanings = meaningsIn(text);
  return (
    <span className="idle" data-testid="status-line" {...(meanings ? { title: meanings } : {})}>
      {text}
    </span>
  );
}
