// The shortcut sheet (`?`, or the toolbar's ? button): every key the app answers to, the menu's
// commands from the one shortcut table (written as this platform writes them) and the page's own keys.
// A dialog: focus moves in and stays in, Esc closes.

import { useId } from 'react';
import { COMMAND_SHORTCUTS, keysLabel, PAGE_SHORTCUTS } from '../../shared/shortcuts';
import { Dialog } from './Dialog';

export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  const labelId = useId();
  const isMac = /Mac|iPhone|iPad/.test(navigator.platform);
  const rows = [
    ...COMMAND_SHORTCUTS.map((shortcut) => ({ keys: keysLabel(shortcut.accelerator, isMac), does: shortcut.does })),
    ...PAGE_SHORTCUTS,
  ];
  return (
    <Dialog title="Keyboard shortcuts" labelId={labelId} onClose={onClose}>
      <table className="shortcut-sheet">
        <caption className="visually-hidden">Keys and what they do</caption>
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Does</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.keys}>
              <td>
                <kbd>{row.keys}</kbd>
              </td>
              <td>{row.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <footer>
        <button type="button" className="button" onClick={onClose} data-autofocus>
          Close
        </button>
      </footer>
    </Dialog>
  );
}
