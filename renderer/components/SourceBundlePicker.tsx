// Where Compare and Actions take their source bundle from: a path typed by hand (relative to the
// workspace's folder, `~` for the home of the user running the engine), one of the bundles the
// workspace holds (listed with what each manifest says it is), or, in the desktop app, a folder
// picked in the native dialog. Only ever names a bundle to read; never reads or writes one itself.

import { useId } from 'react';
import type { DestinationEntry } from '../../shared/api';
import { getClient } from '../api/client';
import { useSourceBundles } from '../hooks/api';
import { reportError } from '../state/actions';
import { useAppState } from '../state/store';
import { bundleAt, bundleLabel } from '../view/sourceBundleView';

interface Props {
  entry: DestinationEntry;
  /** The path in the field: the configured source, one picked, or what was typed. */
  value: string;
  onChange: (path: string) => void;
  /** The id of the text field (its label is "Source bundle"). */
  inputId: string;
}

export function SourceBundlePicker({ entry, value, onChange, inputId }: Props) {
  const bundles = useSourceBundles();
  const transport = useAppState((state) => state.transport);
  const root = useAppState((state) => state.workspace?.root);
  const listId = useId();
  const hintId = useId();
  const list = bundles.state.status === 'ok' ? bundles.state.value.bundles : [];
  const selected = bundleAt(list, value);

  const pick = async () => {
    const picked = await getClient().invoke('chooseSourceBundle', {});
    if (!picked.ok) return reportError('Could not show the folder dialog', picked.error);
    if (picked.value.path) onChange(picked.value.path);
  };

  return (
    <div className="source-bundle-picker">
      <div className="field">
        <label htmlFor={inputId}>Source bundle</label>
        <input
          id={inputId}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          placeholder="sources/my-bundle, ~/bundles/v2 or /srv/bundles/v2 (a folder holding manifest.json)"
          spellCheck={false}
          aria-describedby={hintId}
        />
        <span className="hint" id={hintId}>
          {entry.source
            ? 'Defaults to the source the workspace file configures. '
            : 'The workspace configures no source for this destination. '}
          A relative path is read from the workspace folder
          {root ? (
            <>
              {' '}
              <code>{root}</code>
            </>
          ) : (
            ''
          )}
          ; <code>~</code> is the home folder of the user the inspector runs as.
        </span>
      </div>
      <div className="field">
        <label htmlFor={listId}>Bundles in this workspace</label>
        <select
          id={listId}
          value={selected?.path ?? ''}
          onChange={(event) => event.target.value !== '' && onChange(event.target.value)}
          disabled={bundles.state.status !== 'ok' || list.length === 0}
        >
          <option value="">
            {bundles.state.status === 'loading'
              ? 'Looking for bundles…'
              : bundles.state.status === 'error'
                ? `Could not list the bundles: ${bundles.state.error.message}`
                : list.length === 0
                  ? 'No bundle found under the workspace folder'
                  : !selected && value.trim() !== ''
                    ? 'The path typed above (not in this list)'
                    : `Choose one of ${list.length}…`}
          </option>
          {list.map((bundle) => (
            <option key={bundle.path} value={bundle.path} disabled={!bundle.manifest}>
              {bundleLabel(bundle, entry.id)}
            </option>
          ))}
        </select>
        {bundles.state.status === 'ok' && bundles.state.value.truncated && (
          <span className="hint">The search stopped at its bounds: more bundles may exist; type the path of one not listed.</span>
        )}
      </div>
      {transport === 'electron' && (
        <button type="button" className="button" onClick={() => void pick()}>
          Choose folder…
        </button>
      )}
    </div>
  );
}
