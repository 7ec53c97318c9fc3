// The lines of the history journal that could not be read (a record cut off by a crash), for the
// History tab and the workspace's History view: the count, and the first few by line number.

import type { HistoryLineIssue } from '../../shared/historySchema';
import { plural } from '../view/format';
import { Callout } from './Callout';

export function JournalIssues({ issues }: { issues: HistoryLineIssue[] }) {
  if (issues.length === 0) return null;
  return (
    <Callout tone="warning" title={`${plural(issues.length, 'line')} of the journal could not be read`}>
      <ul>
        {issues.slice(0, 5).map((issue) => (
          <li key={issue.line}>
            line {issue.line}: {issue.message}
          </li>
        ))}
      </ul>
    </Callout>
  );
}
