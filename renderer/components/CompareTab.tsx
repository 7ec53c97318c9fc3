// The Compare tab: a source bundle (the configured one by default, or any other: typed, one of the
// workspace's bundles, or picked in the desktop app), the decision and its reason in plain words, the
// field differences (id, created, digest) and the file diff. A matching manifest over drifted outputs
// is a warning naming each output, never a green "up to date" (the engine verified them). An unmanaged
// folder also gets the folder compare path by path and Adopt (FolderCompareSection.tsx).

import { useEffect, useState } from 'react';
import type { DestinationEntry } from '../../shared/api';
import { useCompare } from '../hooks/api';
import { formatTimestamp, shortHash } from '../view/format';
import { Callout } from './Callout';
import { Icon } from './Icon';
import { ManifestDiff } from './ManifestDiff';
import { ContentDiffPanel } from './ContentDiffPanel';
import { SourceBundlePicker } from './SourceBundlePicker';
import { outputRuleFor } from '../../shared/publishRules';
import type { DestinationStatus } from '../../shared/inspection';
import type { GoTo } from '../view/sectionGoals';
import { useBackupTarget } from './BackupTargetNote';
import { FolderCompareSection } from './FolderCompareSection';

/** Drifted outputs named in the decision; the rest are counted. */
const DRIFT_SHOWN = 20;

function Field({
  name,
  recorded,
  current,
  kind,
}: {
  name: string;
  recorded: string | undefined;
  current: string;
  kind: 'text' | 'time' | 'hash';
}) {
  const show = (value: string) =>
    kind === 'hash' ? shortHash(value) : kind === 'time' ? `${value} (${formatTimestamp(value)?.utc ?? 'not a time'})` : value;
  const same = recorded === current;
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{recorded === undefined ? <span className="muted">no valid state</span> : <code title={recorded}>{show(recorded)}</code>}</td>
      <td>
        <code title={current}>{show(current)}</code>
      </td>
      <td>
        {recorded === undefined ? (
          ''
        ) : same ? (
          <span className="badge tone-good">
            <Icon name="check" />
            same
          </span>
        ) : (
          <span className="badge tone-warning">
            <Icon name="alert" />
            differs
          </span>
        )}
      </td>
    </tr>
  );
}

/** `status`: the destination's, from its inspection; an unmanaged folder also gets the folder compare and Adopt. */
export function CompareTab({ entry, status, onGoTo }: { entry: DestinationEntry; status?: DestinationStatus | undefined; onGoTo?: GoTo }) {
  const backup = useBackupTarget(entry.id);
  // Shown while the folder is unmanaged, and kept once shown so an adopt's outcome stays on screen.
  const [folderShown, setFolderShown] = useState(status === 'unmanaged');
  if (status === 'unmanaged' && !folderShown) setFolderShown(true);
  const [source, setSource] = useState(entry.source ?? '');
  const compare = useCompare();
  /** The output whose content diff is open: the destination's bytes against what publishing the compared source writes. */
  const [diffOutput, setDiffOutput] = useState<{ path: string; source: string }>();
  const { run } = compare;

  // The configured source is compared at once: it is what a newcomer wants to see first.
  useEffect(() => {
    if (entry.source) void run({ destination: entry.id });
  }, [entry.id, entry.source, run]);

  const submit = () => {
    setDiffOutput(undefined);
    void run(
      source.trim() === '' || source === entry.source ? { destination: entry.id } : { destination: entry.id, source: source.trim() },
    );
  };
  const state = compare.state;

  return (
    <div>
      <form
        className="source-picker"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <SourceBundlePicker entry={entry} value={source} onChange={setSource} inputId="compare-source" />
        <button type="submit" className="button primary" disabled={state.status === 'loading' || (source.trim() === '' && !entry.source)}>
          Compare
        </button>
        {entry.source && source !== entry.source && (
          <button type="button" className="button" onClick={() => setSource(entry.source ?? '')}>
            Use configured source
          </button>
        )}
      </form>

      {state.status === 'idle' && <p className="muted">Pick a source bundle and compare.</p>}
      {state.status === 'loading' && <p role="status">Comparing…</p>}
      {state.status === 'error' && (
        <Callout tone="danger" title="Could not compare" role="alert">
          <p>{state.error.message}</p>
        </Callout>
      )}
      {state.status === 'ok' &&
        (() => {
          const { comparison, explanation: words, drift, recorded, current, diff, sourcePath } = state.value;
          return (
            <div data-testid="compare-result">
              <Callout tone={words.tone} title={`Decision: ${words.title}`} role="status">
                <p data-testid="decision-sentence">{words.sentence}</p>
                {drift && drift.drifted.length > 0 && (
                  <ul className="drift-list" aria-label="Outputs that differ from the state" data-testid="compare-drift">
                    {drift.drifted.slice(0, DRIFT_SHOWN).map((output) => (
                      <li key={output.path}>
                        <code>{output.path}</code> <span className="badge tone-warning">{output.status}</span>
                      </li>
                    ))}
                    {drift.drifted.length > DRIFT_SHOWN && (
                      <li className="muted">
                        … and {drift.drifted.length - DRIFT_SHOWN} more (the Outputs tab lists them all after a verify)
                      </li>
                    )}
                  </ul>
                )}
                <p className="muted">
                  {words.next ? `${words.next} ` : ''}(rule {comparison.rule} of the contract; source <code>{sourcePath}</code>)
                </p>
              </Callout>
              <section className="section" aria-labelledby="field-diff">
                <h2 id="field-diff">Fields</h2>
                <div className="table-wrap">
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">Field</th>
                        <th scope="col">Destination received</th>
                        <th scope="col">Source now</th>
                        <th scope="col">
                          <span className="visually-hidden">Same or different</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      <Field name="id" recorded={recorded?.id} current={current.id} kind="text" />
                      <Field name="created" recorded={recorded?.created} current={current.created} kind="time" />
                      <Field name="digest" recorded={recorded?.digest} current={current.digest} kind="hash" />
                    </tbody>
                  </table>
                </div>
                {diff?.fields.created?.order === 'same_instant' && (
                  <p className="muted">The two created times are spelled differently but name the same instant.</p>
                )}
              </section>
              {diff ? (
                <ManifestDiff diff={diff} onShowDiff={(path) => setDiffOutput({ path: outputRuleFor(path).path, source: sourcePath })} />
              ) : (
                <p className="muted">No file diff: the destination holds no valid state to compare files with.</p>
              )}
              {diffOutput && (
                <ContentDiffPanel
                  target={{ destination: entry.id, path: diffOutput.path, against: 'publish', source: diffOutput.source }}
                  onClose={() => setDiffOutput(undefined)}
                />
              )}
            </div>
          );
        })()}
      {folderShown && (
        <FolderCompareSection
          key={`adopt-${source}`}
          entry={entry}
          source={source.trim() === '' || source === entry.source ? {} : { source: source.trim() }}
          backup={backup}
          onGoTo={onGoTo}
        />
      )}
    </div>
  );
}
