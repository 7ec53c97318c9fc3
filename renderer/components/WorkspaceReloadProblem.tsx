// The banner over the list when the workspace file stopped loading on a re-read (Rescan): which file,
// every problem with its field, and that the list shown is the last good one, with when it was read.
// Never hides the list: the operator keeps what they had, told that it may be out of date.

import { formatIssuePath } from '../../shared/issues';
import type { Workspace } from '../../shared/api';
import { formatTimestamp } from '../view/format';
import { Callout } from './Callout';

export function WorkspaceReloadProblem({ workspace }: { workspace: Workspace }) {
  const problem = workspace.reloadProblem;
  if (!problem) return null;
  const readAt = workspace.listReadAt ? formatTimestamp(workspace.listReadAt)?.local : undefined;
  return (
    <div className="workspace-reload-problem">
      <Callout tone="danger" role="alert" title={`The workspace file no longer loads: ${problem.file}`}>
        <p>
          Showing the last good list{readAt ? `, read ${readAt}` : ''}: destinations added to or removed from the file since are not in it.
          Fix the file and Rescan.
        </p>
        <ul className="reload-issues">
          {problem.issues.map((issue, index) => (
            <li key={index}>
              {issue.path.length > 0 && <code>{formatIssuePath(issue.path)}</code>}
              {issue.path.length > 0 && ': '}
              {issue.message}
            </li>
          ))}
        </ul>
      </Callout>
    </div>
  );
}
