import { describe, expect, it } from 'vitest';
import type { DestinationEntry, HostState, ScanEntry, VerifyEntry } from '../../shared/api';
import type { DestinationStatus } from '../../shared/inspection';
import { fingerprintOf } from '../../shared/verifyFreshness';
import { DestinationTable } from './destinationTable';
import { currentCounts, staleHostNames } from './staleHostCounts';

const FINGERPRINT = { stateSha256: `sha256:${'a'.repeat(64)}`, listingDigest: 'listing-1' };

const destination = (id: string, host?: string): DestinationEntry => ({
  id,
  path: `/srv/${id}`,
  replacePolicy: 'allow',
  ...(host ? { host } : {}),
});

const scanned = (id: string, status: DestinationStatus): ScanEntry => ({
  destination: id,
  inspection: { path: `/srv/${id}`, status, issues: [], hasContent: true, ...FINGERPRINT },
  summary: { status, outputCount: 0, errorCount: 0, warningCount: 0 },
});

const drifted = (id: string): VerifyEntry => ({
  destination: id,
  report: { status: 'drifted', outputs: [], extra: [] },
  stamp: { verifiedAt: '2026-12-04T05:00:00.000Z', basis: fingerprintOf(FINGERPRINT) },
});

const host = (name: string, state: HostState['state']): HostState => ({
  name,
  url: `ssh://${name}/srv`,
  state,
  destinations: 2,
  since: '2026-12-04T05:00:00Z',
});

describe('currentCounts', () => {
  const destinations = [
    destination('local'),
    destination('web-1:a', 'web-1'),
    destination('web-1:b', 'web-1'),
    destination('web-2:a', 'web-2'),
  ];
  const table = DestinationTable.of('/w', destinations)
    .withScan([scanned('local', 'managed'), scanned('web-1:a', 'managed'), scanned('web-1:b', 'invalid'), scanned('web-2:a', 'managed')])
    .withVerify([drifted('web-1:a'), drifted('local')]);
  const counts = { status: table.statusCounts, health: table.healthCounts, sync: table.syncCounts };
  const rowsOf = (hosts: ReadonlySet<string>) => table.rows.filter((row) => row.host !== undefined && hosts.has(row.host));

  it("leaves a lost host's last known statuses out of the status and health counts, and counts them apart", () => {
    const stale = staleHostNames([host('web-1', 'lost'), host('web-2', 'connected')]);
    expect([...stale]).toEqual(['web-1']);
    const current = currentCounts(counts, rowsOf(stale));
    expect(current.stale).toBe(2);
    expect(current.status).toMatchObject({ managed: 2, invalid: 0 });
    expect(current.health.drifted).toBe(1);
    expect(counts.status).toMatchObject({ managed: 3, invalid: 1 });
    expect(counts.health.drifted).toBe(2);
  });

  it('counts every row when every host is connected, and leaves out a failed or connecting one', () => {
    expect(currentCounts(counts, rowsOf(staleHostNames([host('web-1', 'connected'), host('web-2', 'connected')])))).toEqual({
      ...counts,
      status: { ...counts.status },
      stale: 0,
    });
    const some = currentCounts(counts, rowsOf(staleHostNames([host('web-1', 'failed'), host('web-2', 'connecting')])));
    expect(some.stale).toBe(3);
    expect(some.status).toMatchObject({ managed: 1, invalid: 0 });
  });
});
