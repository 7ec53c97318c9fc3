import { describe, expect, it } from 'vitest';
import { pickedPath, sourceBundleDialogOptions, workspaceDialogOptions } from './openDialogs';

describe('the native open dialogs', () => {
  it('ask for a folder for a source bundle, starting in the workspace folder when one is open', () => {
    expect(sourceBundleDialogOptions('/srv/publish')).toEqual({
      title: 'Choose a source bundle (a folder holding manifest.json)',
      properties: ['openDirectory'],
      buttonLabel: 'Use this bundle',
      defaultPath: '/srv/publish',
    });
    expect(sourceBundleDialogOptions(undefined)).not.toHaveProperty('defaultPath');
  });

  it('ask for a json file or a folder for a workspace', () => {
    expect(workspaceDialogOptions('file')).toMatchObject({ properties: ['openFile'], filters: [{ extensions: ['json'] }] });
    expect(workspaceDialogOptions('folder')).toMatchObject({ properties: ['openDirectory'] });
  });

  it('read a cancelled dialog, or one closed with nothing, as no path', () => {
    expect(pickedPath({ canceled: true, filePaths: ['/srv/x'] })).toBeNull();
    expect(pickedPath({ canceled: false, filePaths: [] })).toBeNull();
    expect(pickedPath({ canceled: false, filePaths: ['/srv/a', '/srv/b'] })).toBe('/srv/a');
  });
});
