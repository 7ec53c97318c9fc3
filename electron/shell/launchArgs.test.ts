import { describe, expect, it } from 'vitest';
import { workspaceFromArgv } from './launchArgs';

describe('workspaceFromArgv', () => {
  it('reads --workspace in both spellings', () => {
    expect(workspaceFromArgv(['electron', '.', '--workspace=/w/demo'], false)).toBe('/w/demo');
    expect(workspaceFromArgv(['electron', '.', '--workspace', '/w/demo'], false)).toBe('/w/demo');
  });

  it('takes the first plain argument, skipping the app folder in development and switches everywhere', () => {
    expect(workspaceFromArgv(['electron', '.', '--no-sandbox', '/w/ws.json'], false)).toBe('/w/ws.json');
    expect(workspaceFromArgv(['/opt/app/inspector', '--enable-logging', '/w/ws.json'], true)).toBe('/w/ws.json');
    expect(workspaceFromArgv(['electron', '.'], false)).toBeUndefined();
    expect(workspaceFromArgv(['/opt/app/inspector'], true)).toBeUndefined();
  });

  it('recognises the app folder by path when a launcher puts switches before it', () => {
    const argv = ['electron', '--inspect=0', '--remote-debugging-port=0', '/repo', '/w/ws.json'];
    expect(workspaceFromArgv(argv, false, '/repo')).toBe('/w/ws.json');
    expect(workspaceFromArgv(['electron', '--inspect=0', '/repo'], false, '/repo/')).toBeUndefined();
  });
});
