import { describe, expect, it } from 'vitest';
import { buildDiagnostics, type DiagnosticsInput } from './diagnostics';

const input: DiagnosticsInput = {
  productName: 'Distributor Inspector',
  appVersion: '0.1.0',
  packaged: true,
  versions: { electron: '45.5.0', chrome: '140.0.7339.133', node: '22.19.0', v8: '14.0.365.4-electron.0' },
  platform: 'darwin',
  arch: 'arm64',
  osRelease: '24.6.0',
  locale: 'en-GB',
  workspace: { kind: 'folder', destinationCount: 12 },
};

describe('buildDiagnostics', () => {
  it('lists the app, runtime and platform versions and the workspace kind, one per line', () => {
    expect(buildDiagnostics(input)).toBe(
      [
        'Distributor Inspector 0.1.0 (packaged)',
        'Electron 45.5.0, Chrome 140.0.7339.133, Node 22.19.0, V8 14.0.365.4-electron.0',
        'Platform: macOS 24.6.0 arm64',
        'Workspace: folder, 12 destinations',
        'Locale: en-GB',
        '',
      ].join('\n'),
    );
  });

  it('says when no workspace is open and when run from sources', () => {
    const text = buildDiagnostics({ ...input, packaged: false, workspace: undefined, locale: undefined });
    expect(text).toContain('(development)');
    expect(text).toContain('Workspace: none open');
    expect(text).not.toContain('Locale');
  });

  it('prints "unknown" rather than a value that is not a version, so nothing odd leaks into a report', () => {
    const text = buildDiagnostics({
      ...input,
      osRelease: '/home/alice/kernel',
      versions: { electron: undefined, chrome: 'x'.repeat(80) },
      locale: 'C:\\Users\\alice',
    });
    expect(text).toContain('Platform: macOS unknown arm64');
    expect(text).toContain('Electron unknown, Chrome unknown, Node unknown, V8 unknown');
    expect(text).toContain('Locale: unknown');
    expect(text).not.toMatch(/alice/);
  });
});
