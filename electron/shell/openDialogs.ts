// What the desktop app's native open dialogs are asked, and how their answer is read: a workspace
// (folder or file) and a source bundle folder. Plain data, so main.ts only hands it to Electron's
// dialog and the wiring is tested under Node. Never reads the disk: the engine reads what was picked.

/** The subset of Electron's OpenDialogOptions these dialogs use. */
export interface OpenDialogRequest {
  title: string;
  properties: ('openFile' | 'openDirectory')[];
  filters?: { name: string; extensions: string[] }[];
  defaultPath?: string;
  buttonLabel?: string;
}

export function workspaceDialogOptions(kind: 'folder' | 'file'): OpenDialogRequest {
  return kind === 'file'
    ? { title: 'Open a workspace file', properties: ['openFile'], filters: [{ name: 'Workspace file', extensions: ['json'] }] }
    : { title: 'Open a workspace folder', properties: ['openDirectory'] };
}

/** A source bundle is a folder holding manifest.json; the dialog starts in the workspace's folder. */
export function sourceBundleDialogOptions(startIn: string | undefined): OpenDialogRequest {
  return {
    title: 'Choose a source bundle (a folder holding manifest.json)',
    properties: ['openDirectory'],
    buttonLabel: 'Use this bundle',
    ...(startIn !== undefined ? { defaultPath: startIn } : {}),
  };
}

/** The one path picked, or null when the dialog was cancelled or closed with nothing. */
export function pickedPath(answer: { canceled: boolean; filePaths: readonly string[] }): string | null {
  return answer.canceled ? null : (answer.filePaths[0] ?? null);
}
