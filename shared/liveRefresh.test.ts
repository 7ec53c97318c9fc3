// The status bar's words on live refresh (liveRefresh.ts), with workspace hosts: their destinations
// watched by their agents said beside this machine's, and those no agent vouches for now named apart.

import { describe, expect, it } from 'vitest';
import { LIVE_REFRESH_OFF, liveRefreshSentence, type LiveRefreshStatus } from './liveRefresh';

const on = (patch: Partial<LiveRefreshStatus>): LiveRefreshStatus => ({ ...LIVE_REFRESH_OFF, active: true, ...patch });

describe('liveRefreshSentence with workspace hosts', () => {
  it("says this machine's destinations alone when there is no host", () => {
    expect(liveRefreshSentence(on({ watching: 3 }))).toBe('watching 3 destinations');
    expect(liveRefreshSentence(on({ watching: 3, hosts: { watched: 0, unwatched: 0 } }))).toBe('watching 3 destinations');
  });

  it("says the hosts' destinations watched by their agents, beside this machine's or alone", () => {
    expect(liveRefreshSentence(on({ watching: 3, hosts: { watched: 12, unwatched: 0 } }))).toBe(
      'watching 3 destinations; 12 destinations on hosts, by their agents',
    );
    expect(liveRefreshSentence(on({ hosts: { watched: 1, unwatched: 0 } }))).toBe('watching 1 destination on hosts, by their agents');
  });

  it('names the destinations of hosts whose watch cannot vouch for them now', () => {
    expect(liveRefreshSentence(on({ hosts: { watched: 0, unwatched: 1 } }))).toBe(
      '1 destination on hosts not watched now (not connected, or their watch failed)',
    );
    expect(liveRefreshSentence(on({ watching: 2, hosts: { watched: 4, unwatched: 5 } }))).toBe(
      'watching 2 destinations; 4 destinations on hosts, by their agents; 5 destinations on hosts not watched now (not connected, or their watch failed)',
    );
  });

  it('says nothing while live refresh is off', () => {
    expect(liveRefreshSentence({ ...LIVE_REFRESH_OFF, hosts: { watched: 4, unwatched: 0 } })).toBeUndefined();
  });
});
