// A link recorded in a state file. Opens outside the app only when it is https: through the Electron
// shell's openLink, or a new browser tab (no opener) in the browser host. Anything else is text.
import { getClient } from '../api/client';
import { reportError } from '../state/actions';
import { isOpenableLink } from '../view/stateView';
import { Icon } from './Icon';

export function ExternalLink({ url, destination }: { url: string | undefined; destination: string }) {
  if (!url) return <span className="muted">none</span>;
  if (!isOpenableLink(url)) {
    return (
      <span>
        <code>{url}</code> <span className="muted">(not https: not opened from here)</span>
      </span>
    );
  }
  const client = getClient();
  if (client.transport === 'electron') {
    return (
      <button
        type="button"
        className="button link"
        onClick={async () => {
          const answer = await client.invoke('openLink', { destination, url });
          if (!answer.ok) reportError('Could not open the link', answer.error);
        }}
      >
        {url} <Icon name="external" />
      </button>
    );
  }
  return (
    <a href={url} target="_blank" rel="noopener noreferrer">
      {url} <Icon name="external" />
    </a>
  );
}
