// The Overview tab: who the destination is, when it was published and from what, counts, its sync and
// health in words, and every warning. Says plainly when there is no valid state to describe.

import type { DestinationEntry, ResponseOf } from '../../shared/api';
import { groupDigits } from '../../shared/issueCap';
import { countIssues, formatIssuePath } from '../../shared/issues';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { isInterruptedIssue } from '../view/destinationRows';
import { entryKind, listingSentence, summarizeListing } from '../view/listingView';
import { formatBytes, formatTimestamp, shortHash } from '../view/format';
import { readState, splitIssues, stateCounts } from '../view/stateView';
import { Callout } from './Callout';
import { SyncAndHealth } from './SyncAndHealth';
import { CopyButton } from './CopyButton';
import { ExternalLink } from './ExternalLink';
import { GoToButton } from './GoToButton';
import type { GoTo } from '../view/sectionGoals';

type Inspection = ResponseOf<'inspectDestination'>;

/** How many entries of an unmanaged destination the overview names; the count covers them all. */
const FIRST_ENTRIES_SHOWN = 20;

/** An unmanaged destination's contents: nothing records them, so the overview shows what the engine found. */
function UnmanagedContents({ listing }: { listing: Inspection['listing'] }) {
  const summary = summarizeListing(listing, FIRST_ENTRIES_SHOWN);
  const more = summary.total - summary.first.length;
  return (
    <section className="section" aria-labelledby="overview-contents">
      <h2 id="overview-contents">What is in it</h2>
      <p data-testid="contents-count">{listingSentence(summary)}</p>
      {summary.first.length > 0 && (
        <div className="table-wrap">
          <table data-testid="contents-table">
            <caption className="visually-hidden">The first entries of the destination, as found on disk</caption>
            <thead>
              <tr>
                <th scope="col">Path</th>
                <th scope="col">What</th>
                <th scope="col" className="num">
                  Size
                </th>
              </tr>
            </thead>
            <tbody>
              {summary.first.map((item) => (
                <tr key={item.path} data-entry={item.path}>
                  <td>
                    <code>{item.type === 'directory' ? `${item.path}/` : item.path}</code>
                  </td>
                  <td>{entryKind(item)}</td>
                  <td className="num">{item.type === 'file' ? formatBytes(item.sizeBytes) : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {more > 0 && (
        <p className="muted" data-testid="contents-more">
          and {summary.truncated ? 'at least ' : ''}
          {groupDigits(more)} more.
        </p>
      )}
    </section>
  );
}

function Time({ text }: { text: string }) {
  const time = formatTimestamp(text);
  if (!time) return <code>{text}</code>;
  return (
    <span>
      {time.local}
      <br />
      <span className="muted">
        {time.utc} · <code>{time.exact}</code>
      </span>
    </span>
  );
}

/** `onGoTo`: each banner's button opens the action that clears what it warns about (DetailPane's goTo). */
export function OverviewTab({ data, entry, onGoTo }: { data: Inspection; entry: DestinationEntry; onGoTo?: GoTo }) {
  const { inspection } = data;
  const state = readState(inspection.stateJson);
  const { errors, warnings } = splitIssues(inspection.issues);
  // Exact, also when the list is capped (a summary issue stands for the issues it counts).
  const errorCount = countIssues(inspection.issues).errors;
  const interrupted = inspection.issues.some(isInterruptedIssue);
  const counts = state ? stateCounts(state) : undefined;
  const onDisk = data.listing.entries.filter((item) => item.type === 'file').length;
  // By the contract, unmanaged and empty mean no state file; only then is there nothing to check.
  const hasStateFile = inspection.status === 'managed' || inspection.status === 'invalid';

  return (
    <div>
      {interrupted && (
        <Callout tone="warning" title="A replace was interrupted here">
          <p>
            A staging folder (<code>{STAGING_DIR_NAME}</code>) was left by a replace that did not finish. The state file still describes
            what is on disk. Discard staging removes only that folder, into a backup that Undo puts back; a forced replace clears it too,
            but deletes everything else in the folder.
          </p>
          <GoToButton goal="discardStaging" onGoTo={onGoTo}>
            Discard staging…
          </GoToButton>
        </Callout>
      )}
      {inspection.status === 'invalid' && (
        <Callout tone="danger" title={`The state file is invalid: ${groupDigits(errorCount)} error${errorCount === 1 ? '' : 's'}`}>
          <p>
            {inspection.stateWithheld
              ? `The state file is ${formatBytes(inspection.stateWithheld.sizeBytes)}, too large to show; its problems are listed below.`
              : 'The Raw state tab shows each problem where it is in the file.'}{' '}
            Until it is fixed, only a forced replace can publish here.
          </p>
          {!inspection.stateWithheld && (
            <GoToButton goal="rawIssues" onGoTo={onGoTo}>
              Open Raw state
            </GoToButton>
          )}
        </Callout>
      )}
      {inspection.status === 'unmanaged' && (
        <Callout tone="warning" title="Unmanaged: files, but no state file">
          <p>Nothing records what is here (listed below). A forced replace takes the destination over and deletes all of it.</p>
          <GoToButton goal="forcedReplace" onGoTo={onGoTo}>
            Forced replace…
          </GoToButton>
        </Callout>
      )}
      {inspection.status === 'empty' && (
        <Callout tone="info" title="Empty: nothing published here yet">
          <p>
            {inspection.hasContent ? 'The folder holds nothing but a state file.' : 'The folder is empty or does not exist yet.'} A replace
            publishes the configured source.
          </p>
          <GoToButton goal="replace" onGoTo={onGoTo}>
            Replace…
          </GoToButton>
        </Callout>
      )}

      {inspection.status === 'unmanaged' && <UnmanagedContents listing={data.listing} />}

      <SyncAndHealth entry={entry} managed={inspection.status === 'managed'} onGoTo={onGoTo} />

      {counts && (
        <div className="cards" aria-label="Counts">
          <div className="card">
            <div className="value">{counts.outputs}</div>
            <div className="label">outputs</div>
          </div>
          <div className="card">
            <div className="value">{counts.generated}</div>
            <div className="label">generated</div>
          </div>
          <div className="card">
            <div className="value">{counts.copied}</div>
            <div className="label">copied</div>
          </div>
          <div className="card">
            <div className="value">{formatBytes(counts.outputBytes)}</div>
            <div className="label">output bytes</div>
          </div>
          <div className="card">
            <div className="value">{onDisk}</div>
            <div className="label">files on disk</div>
          </div>
          <div className="card">
            <div className="value">{warnings.length}</div>
            <div className="label">warnings</div>
          </div>
        </div>
      )}

      <section className="section" aria-labelledby="overview-identity">
        <h2 id="overview-identity">Destination</h2>
        <dl className="facts">
          <dt>Destination id</dt>
          <dd>
            {state?.destination_id ?? <span className="muted">not recorded</span>}
            {entry.destinationId && state && entry.destinationId !== state.destination_id ? ` (configured: ${entry.destinationId})` : ''}
          </dd>
          <dt>Pipeline id</dt>
          <dd>{state?.pipeline_id ?? entry.pipelineId ?? <span className="muted">not recorded</span>}</dd>
          <dt>Path</dt>
          <dd>
            <code>{inspection.path}</code>
          </dd>
          {state && (
            <>
              <dt>Published</dt>
              <dd>
                <Time text={state.published_at} />
              </dd>
              <dt>Distributor version</dt>
              <dd>{state.distributor_version ?? <span className="muted">not recorded</span>}</dd>
              <dt>Primary link</dt>
              <dd>
                <ExternalLink url={state.links?.primary_url} destination={entry.id} />
              </dd>
            </>
          )}
          <dt>Configured source</dt>
          <dd>{entry.source ? <code>{entry.source}</code> : <span className="muted">none configured</span>}</dd>
          <dt>Replace policy</dt>
          <dd>{entry.replacePolicy === 'deny' ? 'deny: normal replace is not allowed' : 'allow'}</dd>
        </dl>
      </section>

      {state && counts && (
        <section className="section" aria-labelledby="overview-source">
          <h2 id="overview-source">Source manifest it received</h2>
          <dl className="facts">
            <dt>Source id</dt>
            <dd>{state.source.manifest.id}</dd>
            <dt>Created</dt>
            <dd>
              <Time text={state.source.manifest.created} />
            </dd>
            <dt>Digest</dt>
            <dd className="hash">
              <code>{shortHash(state.source.manifest.digest)}</code> <CopyButton value={state.source.manifest.digest} label="digest" />
            </dd>
            <dt>Files</dt>
            <dd>
              {counts.manifestFiles} files, {formatBytes(counts.manifestBytes)}
            </dd>
          </dl>
        </section>
      )}

      <section className="section" aria-labelledby="overview-issues">
        <h2 id="overview-issues">Warnings and errors</h2>
        {inspection.issues.length === 0 ? (
          <p className="muted">{hasStateFile ? 'None: the state file follows the contract.' : 'None: there is no state file to check.'}</p>
        ) : (
          <ul className="issue-list">
            {[...errors, ...warnings].map((issue, index) => (
              <li key={index} className={issue.omitted ? 'issue-more' : undefined}>
                <span className={`badge ${issue.severity === 'error' ? 'tone-danger' : 'tone-warning'}`}>
                  {issue.omitted ? `${groupDigits(issue.omitted.count)} more` : issue.severity}
                </span>
                <span>
                  <code>{formatIssuePath(issue.path)}</code> {issue.message}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
