// The Raw state tab: the state file's text as on disk, each validation issue marked at its JSON path,
// and the list of issues beside it; choosing an issue scrolls to where it is. A duplicate key is
// marked at every place it is written; a size written as 1.0 or 1e0 at that very number.

import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import type { ResponseOf } from '../../shared/api';
import { formatIssuePath, type Issue } from '../../shared/issues';
import { indexJson, lineOf, lineStarts, locateJsonPath } from '../view/jsonLocate';
import { ISSUES_KEPT_PER_CODE } from '../../shared/issueCap';
import { formatBytes } from '../view/format';
import { Callout } from './Callout';
import { Icon } from './Icon';
import { SECTION_GOALS } from '../view/sectionGoals';

type Inspection = ResponseOf<'inspectDestination'>['inspection'];

interface MarkedIssue {
  issue: Issue;
  number: number;
  firstLine: number;
  lastLine: number;
  start: number;
  end: number;
  exact: boolean;
  /** Other lines the issue marks: the earlier places of a key written twice. */
  alsoLines: number[];
}

const LINE_PX = 20;

export function RawStateTab({ inspection }: { inspection: Inspection }) {
  const text = inspection.stateText ?? (inspection.stateJson ? JSON.stringify(inspection.stateJson, null, 2) : undefined);
  const [active, setActive] = useState<number | undefined>(undefined);
  const scroller = useRef<HTMLDivElement>(null);

  const { lines, marked, lineMarks } = useMemo(() => {
    if (text === undefined) return { lines: [] as string[], marked: [] as MarkedIssue[], lineMarks: new Map<number, MarkedIssue[]>() };
    const starts = lineStarts(text);
    const index = indexJson(text);
    const marked = inspection.issues.map((issue, i): MarkedIssue => {
      // Text that is not JSON has no path to find: the engine says which line and column stopped it.
      if (issue.location) {
        const line = Math.min(issue.location.line - 1, starts.length - 1);
        return {
          issue,
          number: i + 1,
          start: starts[line]!,
          end: starts[line]!,
          exact: true,
          firstLine: line,
          lastLine: line,
          alsoLines: [],
        };
      }
      const found = locateJsonPath(text, issue.path, index);
      return {
        issue,
        number: i + 1,
        start: found.start,
        end: found.end,
        exact: found.exact,
        firstLine: lineOf(starts, found.start),
        lastLine: lineOf(starts, Math.max(found.start, found.end - 1)),
        alsoLines: found.earlier.map((span) => lineOf(starts, span.start)),
      };
    });
    const lineMarks = new Map<number, MarkedIssue[]>();
    for (const mark of marked) {
      // A whole-document issue, or the summary of issues past the cap (at "outputs", say), marks only
      // its first line, not every line it spans.
      const last = mark.issue.path.length === 0 || mark.issue.omitted ? mark.firstLine : mark.lastLine;
      for (let line = mark.firstLine; line <= last; line++) lineMarks.set(line, [...(lineMarks.get(line) ?? []), mark]);
      for (const line of mark.alsoLines)
        if (!lineMarks.get(line)?.includes(mark)) lineMarks.set(line, [...(lineMarks.get(line) ?? []), mark]);
    }
    return { lines: text.split('\n'), marked, lineMarks, starts };
  }, [text, inspection.issues]);

  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => LINE_PX,
    overscan: 30,
  });

  if (text === undefined && inspection.stateWithheld) {
    return (
      <Callout tone="warning" title="State file too large to show">
        <p>
          The state file is {formatBytes(inspection.stateWithheld.sizeBytes)}: its text is not shown here. Its issues are listed in the
          Overview tab (at most {ISSUES_KEPT_PER_CODE} of each kind, then how many more).
        </p>
      </Callout>
    );
  }

  if (text === undefined) {
    return (
      <Callout tone="info" title="No state file">
        <p>{inspection.issues[0]?.message ?? 'This destination has no .distributor.json to show.'}</p>
      </Callout>
    );
  }

  const goTo = (mark: MarkedIssue) => {
    setActive(mark.number);
    virtualizer.scrollToIndex(mark.firstLine, { align: 'center' });
  };

  return (
    <div className="raw">
      <div ref={scroller} className="raw-text" tabIndex={0} role="region" aria-label="State file as on disk">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: 'max-content' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const marks = lineMarks.get(item.index);
            const isActive = marks?.some((mark) => mark.number === active);
            const severity = marks?.some((mark) => mark.issue.severity === 'error') ? 'error' : marks ? 'warning' : '';
            const startsHere = marks?.filter((mark) => mark.firstLine === item.index || mark.alsoLines.includes(item.index)) ?? [];
            return (
              <div
                key={item.index}
                className={`raw-line ${severity} ${isActive ? 'active' : ''}`}
                style={{ top: item.start, height: LINE_PX, lineHeight: `${LINE_PX}px` }}
                data-line={item.index + 1}
                data-issues={marks?.map((mark) => mark.number).join(' ')}
              >
                <span className="gutter">
                  {startsHere.map((mark) => (
                    <span
                      key={mark.number}
                      className={`badge ${mark.issue.severity === 'error' ? 'tone-danger' : 'tone-warning'}`}
                      title={mark.issue.message}
                    >
                      {mark.number}
                    </span>
                  ))}
                  {item.index + 1}
                </span>
                <span>{lines[item.index] || ' '}</span>
              </div>
            );
          })}
        </div>
      </div>
      <div className="raw-issues" id={SECTION_GOALS.rawIssues.id} tabIndex={-1} role="region" aria-labelledby="raw-issues-title">
        <h2 className="section-title" id="raw-issues-title">
          {marked.length === 0 ? 'No issues' : `${marked.length} issue${marked.length === 1 ? '' : 's'}`}
        </h2>
        {marked.length === 0 && <p className="muted">The state file follows the contract.</p>}
        <ol className="issue-list" aria-label="Issues in the state file">
          {marked.map((mark) => (
            <li key={mark.number}>
              <button
                type="button"
                className="raw-issue"
                aria-current={active === mark.number}
                onClick={() => goTo(mark)}
                data-issue-path={formatIssuePath(mark.issue.path)}
              >
                <span>
                  <span className={`badge ${mark.issue.severity === 'error' ? 'tone-danger' : 'tone-warning'}`}>
                    <Icon name={mark.issue.severity === 'error' ? 'xCircle' : 'alert'} />
                    {mark.number} · {mark.issue.severity}
                  </span>{' '}
                  <span className="where">{formatIssuePath(mark.issue.path)}</span>
                </span>
                <span>{mark.issue.message}</span>
                <span className="muted">
                  line {mark.firstLine + 1}
                  {mark.issue.location ? `, column ${mark.issue.location.column}` : ''}
                  {mark.alsoLines.length > 0 ? `, also written on line ${mark.alsoLines.map((line) => line + 1).join(', ')}` : ''}
                  {mark.exact ? '' : ' (the field is missing: marked at its parent)'}
                </span>
              </button>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
