// The dialogs and the open form as one chunk, loaded when first wanted (laterViews.tsx).

export { HistoryDialog } from './HistoryDialog';
export { OpenWorkspaceDialog, OpenWorkspaceForm } from './OpenWorkspaceDialog';
export { ResetDemoDialog } from './ResetDemoDialog';
export { RestoreHost } from './RestoreBackupDialog';
