import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HISTORY_FILE_NAME, userHistoryFile, workspaceHistoryFile } from './journalPath';

const fallback = () => '/home/ana/.local/state/distributor-inspector/history.jsonl';
const destination = (p: string) => ({ id: path.basename(p), path: p, replacePolicy: 'allow' as const });

describe('where the history journal is', () => {
  it('is beside the workspace file, or in a folder of destinations, by default', () => {
    expect(workspaceHistoryFile({ kind: 'file', root: '/srv/ws', destinations: [destination('/srv/ws/sites/a')] }, fallback)).toBe(
      path.join('/srv/ws', HISTORY_FILE_NAME),
    );
    expect(workspaceHistoryFile({ kind: 'folder', root: '/srv/sites', destinations: [destination('/srv/sites/a')] }, fallback)).toBe(
      path.join('/srv/sites', HISTORY_FILE_NAME),
    );
  });

  it("is where the workspace file says, and the user's own when beside would be inside a destination", () => {
    expect(workspaceHistoryFile({ kind: 'file', root: '/srv/ws', destinations: [], historyFile: '/var/log/di.jsonl' }, fallback)).toBe(
      '/var/log/di.jsonl',
    );
    expect(workspaceHistoryFile({ kind: 'folder', root: '/srv/site', destinations: [destination('/srv/site')] }, fallback)).toBe(
      fallback(),
    );
    // A sibling whose name starts the same is not inside.
    expect(workspaceHistoryFile({ kind: 'folder', root: '/srv/s', destinations: [destination('/srv/site')] }, fallback)).toBe(
      path.join('/srv/s', HISTORY_FILE_NAME),
    );
  });

  it("keeps the user's own journal in the platform's state folder", () => {
    expect(userHistoryFile({}, '/home/ana', 'linux')).toBe('/home/ana/.local/state/distributor-inspector/history.jsonl');
    expect(userHistoryFile({ XDG_STATE_HOME: '/x/state' }, '/home/ana', 'linux')).toBe('/x/state/distributor-inspector/history.jsonl');
    expect(userHistoryFile({ XDG_STATE_HOME: 'relative' }, '/home/ana', 'linux')).toBe(
      '/home/ana/.local/state/distributor-inspector/history.jsonl',
    );
    expect(userHistoryFile({}, '/Users/ana', 'darwin')).toBe('/Users/ana/Library/Application Support/distributor-inspector/history.jsonl');
  });
});
