// The Outputs tab: every recorded output with its verify status, the extra files, and a verify of this
// destination with progress and Cancel.

import { useState } from 'react';
import type { DestinationEntry, ResponseOf } from '../../shared/api';
import { verify } from '../state/actions';
import { useAppState } from '../state/store';
import { formatBytes, shortHash } from '../view/format';
import { readState } from '../view/stateView';
import { Callout } from './Callout';
import { ContentDiffPanel } from './ContentDiffPanel';
import { CopyButton } from './CopyButton';
import { Icon } from './Icon';
import { JobProgress } from './JobProgress';
import { OutputVerifyStatus } from './OutputVerifyStatus';
import { useNow } from '../hooks/useNow';
import { verifiedFactsOf } from '../view/destinationRows';
import { describeVerifyFreshness, verifiedAgo } from '../../shared/verifyFreshnessWords';

type Inspection = ResponseOf<'inspectDestination'>;

/** The verify statuses whose bytes on disk can be diffed against the recorded ones. */
const DIFFABLE = new Set(['size_mismatch', 'hash_mismatch', 'missing']);

export function OutputsTab({ data, entry }: { data: Inspection; entry: DestinationEntry }) {
  const [diffPath, setDiffPath] = useState<string>();
  /** An extra file opened with View: shown as it is on disk, against the publish (which has no such file). */
  const [extraShown, setExtraShown] = useState<string>();
  const state = readState(data.inspection.stateJson);
  const verified = useAppState((app) => app.destinationTable.verifyEntry(entry.id));
  const freshness = useAppState((app) => app.destinationTable.verifyFreshness(entry.id));
  const report = verified?.report;
  const facts = verifiedFactsOf(verified, freshness);
  const now = useNow();
  // A stale result describes the disk as it was: its outputs are shown as what they were, never as ok now.
  const stale = facts !== undefined && !facts.freshness.fresh;
  const job = useAppState((app) => app.jobs.find((candidate) => candidate.method === 'verify' && candidate.destination === entry.id));
  if (!state) {
    return (
      <Callout tone="info" title="No outputs to show">
        <p>
          {data.inspection.status === 'invalid'
            ? 'The state file is invalid, so its outputs cannot be trusted. See Raw state.'
            : 'There is no state file, so nothing records any outputs.'}
        </p>
      </Callout>
    );
  }
  const byPath = new Map(report?.outputs.map((output) => [output.path, output]));
  const problems = report?.outputs.filter((output) => output.status !== 'ok').length ?? 0;
  // The outputs a review walks through (Shift+F8/F7 in the diff), in the table's order.
  const driftedPaths = state.outputs.filter((output) => DIFFABLE.has(byPath.get(output.path)?.status ?? '')).map((output) => output.path);

  return (
    <div>
      <div className="section">
        <div className="button-row" style={{ marginTop: 0 }}>
          <button type="button" className="button primary" onClick={() => void verify([entry.id])} disabled={Boolean(job)}>
            <Icon name="shield" /> Verify this destination
          </button>
          {job && <JobProgress job={job} />}
          {!job && report && stale && facts && (
            <span role="status" className="badge tone-warning" data-testid="outputs-verify-stale">
              <Icon name="refresh" />
              {describeVerifyFreshness(facts.status, facts.verifiedAt, facts.freshness, now)}
            </span>
          )}
          {!job && report && !stale && (
            <span role="status" className={`badge ${report.status === 'intact' ? 'tone-good' : 'tone-danger'}`}>
              <Icon name={report.status === 'intact' ? 'shield' : 'alert'} />
              {report.status === 'intact'
                ? 'intact: every output matches its record'
                : `drifted: ${problems} of ${report.outputs.length} outputs differ`}
              {facts && `, ${verifiedAgo(facts.verifiedAt, now)}`}
            </span>
          )}
          {!job && !report && <span className="muted">Not verified yet: verifying hashes every output on disk.</span>}
        </div>
      </div>
      <div className="table-wrap section">
        <table>
          <caption className="visually-hidden">Outputs recorded in the state file</caption>
          <thead>
            <tr>
              <th scope="col">Path</th>
              <th scope="col">Verify</th>
              <th scope="col">Kind</th>
              <th scope="col">Transform</th>
              <th scope="col" className="num wide-only">
                Size
              </th>
              <th scope="col" className="wide-only">
                sha256
              </th>
              <th scope="col" className="wide-only">
                URL
              </th>
            </tr>
          </thead>
          <tbody>
            {state.outputs.map((output) => {
              const outputVerified = byPath.get(output.path);
              return (
                <tr key={output.path} data-output={output.path}>
                  <td>
                    <span className="output-path">
                      <code>{output.path}</code>
                      {outputVerified && DIFFABLE.has(outputVerified.status) && (
                        <button
                          type="button"
                          className="button small"
                          aria-pressed={diffPath === output.path}
                          aria-label={`Diff ${output.path}`}
                          onClick={() => setDiffPath(output.path)}
                        >
                          Diff
                        </button>
                      )}
                    </span>
                    {/* A pane too narrow for every column (1024 px): Size, sha256 and URL here instead. */}
                    <dl className="row-detail">
                      <dt>Size</dt>
                      <dd>{formatBytes(output.size)}</dd>
                      <dt>sha256</dt>
                      <dd>
                        <OutputHash output={output} />
                      </dd>
                      <dt>URL</dt>
                      <dd>
                        <OutputUrl url={output.url} />
                      </dd>
                    </dl>
                  </td>
                  <td>
                    <OutputVerifyStatus verified={outputVerified} stale={stale} />
                  </td>
                  <td>{output.kind}</td>
                  <td>{output.transform ?? <span className="muted">none</span>}</td>
                  <td className="num wide-only">{formatBytes(output.size)}</td>
                  <td className="wide-only">
                    <OutputHash output={output} />
                  </td>
                  <td className="wide-only">
                    <OutputUrl url={output.url} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {diffPath !== undefined && (
        <ContentDiffPanel
          target={
            extraShown === diffPath
              ? {
                  destination: entry.id,
                  path: diffPath,
                  against: 'publish',
                  title: `Extra file ${diffPath}: on disk, recorded by no state`,
                }
              : { destination: entry.id, path: diffPath, against: 'recorded' }
          }
          onClose={() => setDiffPath(undefined)}
          {...(extraShown === diffPath ? {} : { files: { noun: 'drifted file', paths: driftedPaths, show: setDiffPath } })}
        />
      )}
      <section className="section" aria-labelledby="extra-files">
        <h2 id="extra-files">Extra files</h2>
        {!report ? (
          <p className="muted">Verify to list files that are neither outputs nor the state file.</p>
        ) : report.extra.length === 0 ? (
          <p className="muted">None: every file here is a recorded output.</p>
        ) : (
          <>
            <p className="muted">
              Not recorded in the state. A normal replace never touches them; a forced replace deletes them.
              {stale && ' As found by the last verify: verify again to see them as they are now.'}
            </p>
            <ul>
              {report.extra.map((path) => (
                <li key={path} className="extra-file">
                  <code>{path}</code>
                  <button
                    type="button"
                    className="button small"
                    aria-pressed={diffPath === path}
                    aria-label={`View ${path}`}
                    onClick={() => {
                      setExtraShown(path);
                      setDiffPath(path);
                    }}
                  >
                    View
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </div>
  );
}

function OutputHash({ output }: { output: { path: string; sha256: string } }) {
  return (
    <span className="hash">
      <code>{shortHash(output.sha256)}</code>
      <CopyButton value={output.sha256} label={`sha256 of ${output.path}`} />
    </span>
  );
}

function OutputUrl({ url }: { url: string | undefined }) {
  return url ? <code title={url}>{url.replace(/^https?:\/\//, '')}</code> : <span className="muted">none</span>;
}
