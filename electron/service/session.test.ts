import fc from 'fast-check';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { methodNames, type ApiEvent, type DestinationRead, type Workspace } from '../../shared/api';
import { Session } from './session';
import { okValue as value, jobEnd, jobItems } from '../testing/sessionCalls';
import { makeFixtureWorkspace, type FixtureWorkspace } from '../testing/sessionFixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup(options: { bigOutputBytes?: number } = {}) {
  const fixture: FixtureWorkspace = await makeFixtureWorkspace(options);
  const session = new Session({ transport: 'http', progressIntervalMs: 0 });
  const events: ApiEvent[] = [];
  session.onEvent((event) => events.push(event));
  cleanups.push(async () => {
    await session.close();
    await fixture.remove();
  });
  return { fixture, session, events };
}

describe('Session', () => {
  it('journals every apply, done or refused as stale, beside the workspace, and answers history per destination', async () => {
    const { fixture, session } = await setup();
    value(await session.call('openWorkspace', { path: fixture.workspace }));
    const plan = async (destination: string) =>
      value(
        await session.call('planReplace', {
          destination,
          mode: 'force',
          source: fixture.source,
          pipelineId: 'docs',
          destinationId: destination,
        }),
      ) as { planId: string; confirmText: string };
    const apply = async (planned: { planId: string; confirmText: string }) => {
      const request = { confirmed: true, planId: planned.planId, confirm: planned.confirmText };
      const { job } = value(await session.call('applyPlan', request)) as { job: string };
      return jobEnd(session, job);
    };
    expect(await apply(await plan('empty-one'))).toMatchObject({ data: { result: { ok: true } } });
    const stale = await plan('loose');
    await fs.writeFile(path.join(fixture.workspace, 'loose', 'late.txt'), 'written after the plan');
    expect(await apply(stale)).toMatchObject({ data: { result: { ok: false, error: { code: 'stale_plan' } } } });

    const all = value(await session.call('history', {})) as {
      file: string;
      records: { destination: { id?: string }; transport: string; action: string; result: { outcome: string } }[];
    };
    expect(all.file).toBe(path.join(fixture.workspace, '.inspector-history.jsonl'));
    expect(all.records.map((record) => [record.destination.id, record.transport, record.action, record.result.outcome])).toEqual([
      ['empty-one', 'http', 'force', 'applied'],
      ['loose', 'http', 'force', 'refused'],
    ]);
    const one = value(await session.call('history', { destination: 'loose' })) as { records: unknown[] };
    expect(one.records).toHaveLength(1);
    expect(await session.call('history', { destination: 'nope' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('opens a workspace file that lists hosts with its local destinations, and says per host that it is not shown', async () => {
    const { fixture, session } = await setup();
    const file = path.join(fixture.workspace, 'with-hosts.json');
    await fs.writeFile(file, JSON.stringify({ destinations: [{ path: 'good' }], hosts: [{ name: 'web-1', url: 'ssh://web1/srv/www' }] }));
    await fs.mkdir(path.join(fixture.workspace, 'good'), { recursive: true });
    const opened = value(await session.call('openWorkspace', { path: file })) as Workspace;
    expect(opened.destinations.map((destination) => destination.id)).toEqual(['good']);
    expect(opened.issues).toEqual([
      expect.objectContaining({
        path: ['hosts', 0],
        code: 'host_not_shown',
        severity: 'warning',
        message: expect.stringContaining('ssh://web1/srv/www'),
      }),
    ]);
  });

  it('answers every method that needs a workspace with a typed error before one is open, never a throw', async () => {
    const session = new Session({ transport: 'http' });
    const needWorkspace = methodNames.filter(
      (m) => !['openWorkspace', 'appInfo', 'cancelJob', 'liveRefreshStatus', 'autoVerifySetting', 'setAutoVerify'].includes(m),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...needWorkspace), fc.anything(), async (method, junk) => {
        const result = await session.call(method, junk);
        expect(result).toMatchObject({
          ok: false,
          error: { code: expect.toBeOneOf(['bad_request', 'no_workspace', 'not_available', 'not_found']) },
        });
      }),
      { numRuns: 300 },
    );
    expect(await session.call('scan', {})).toMatchObject({ ok: false, error: { code: 'no_workspace' } });
    expect(await session.call('nope', {})).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    expect(await session.call('revealPath', { destination: 'x' })).toMatchObject({ ok: false, error: { code: 'not_available' } });
  });

  it('answers appInfo, cancelJob and liveRefreshStatus before a workspace is open', async () => {
    const session = new Session({ transport: 'http' });
    expect(await session.call('appInfo', {})).toMatchObject({ ok: true, value: { transport: 'http' } });
    expect(await session.call('liveRefreshStatus', {})).toMatchObject({ ok: true, value: { active: false, watching: 0 } });
    expect(await session.call('cancelJob', { job: 'no-such-job' })).toEqual({ ok: true, value: { cancelled: false } });
    // A per-user preference, not the workspace's.
    expect(await session.call('autoVerifySetting', {})).toEqual({ ok: true, value: { enabled: true } });
  });

  it('opens a folder workspace and lists its destinations by id', async () => {
    const { fixture, session } = await setup();
    const workspace = value(await session.call('openWorkspace', { path: fixture.workspace }));
    expect(workspace).toMatchObject({ kind: 'folder', root: fixture.workspace });
    expect((workspace as { destinations: { id: string }[] }).destinations.map((d) => d.id)).toEqual([
      'broken',
      'empty-one',
      'loose',
      'site-a',
    ]);
    const info = value(await session.call('appInfo', {})) as { transport: string; workspace?: unknown };
    expect(info.transport).toBe('http');
    expect(info.workspace).toEqual(workspace);
  });

  it('reports a workspace that does not exist as invalid_workspace naming the path', async () => {
    const { fixture, session } = await setup();
    const missing = path.join(fixture.workspace, 'nope');
    const result = await session.call('openWorkspace', { path: missing });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_workspace', message: expect.stringContaining(missing) } });
  });

  it('streams one scan item per destination, then the counts', async () => {
    const { fixture, session, events } = await setup();
    value(await session.call('openWorkspace', { path: fixture.workspace }));
    const { job } = value(await session.call('scan', {})) as { job: string };
    const end = await jobEnd(session, job);
    expect(end).toMatchObject({
      event: 'result',
      data: { job, method: 'scan', result: { counts: { total: 4, empty: 1, unmanaged: 1, managed: 1, invalid: 1 } } },
    });
    expect(jobItems(events, job)).toHaveLength(4);
    const progress = events.filter((e) => e.event === 'progress' && e.data.job === job);
    expect(progress.at(-1)).toMatchObject({ data: { done: 4, total: 4 } });
  });

  it('inspects one destination with its raw text, its issues and the files on disk', async () => {
    const { fixture, session } = await setup();
    value(await session.call('openWorkspace', { path: fixture.workspace }));
    const broken = value(await session.call('inspectDestination', { destination: 'broken' })) as {
      inspection: { status: string; stateText: string; issues: { path: unknown[] }[] };
    };
    expect(broken.inspection.status).toBe('invalid');
    expect(broken.inspection.stateText).toBe('{"schema_version": "1"}\n');
    expect(broken.inspection.issues.some((issue) => issue.path[0] === 'schema_version')).toBe(true);
    const site = value(await session.call('inspectDestination', { destination: 'site-a' })) as {
      listing: { entries: { path: string; type: string }[] };
    };
    expect(site.listing.entries.map((e) => e.path)).toEqual(['.distributor.json', 'index.html', 'style.css']);
    expect(await session.call('inspectDestination', { destination: '../etc' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('verifies managed destinations with progress, and sends every destination its row read in the same pass', async () => {
    const { fixture, session, events } = await setup();
    value(await session.call('openWorkspace', { path: fixture.workspace }));
    const { job } = value(await session.call('verify', {})) as { job: string };
    expect(await jobEnd(session, job)).toMatchObject({ event: 'result', data: { result: { intact: 1, drifted: 0, skipped: 3 } } });
    const items = (jobItems(events, job) as DestinationRead[]).sort((a, b) => a.entry.destination.localeCompare(b.entry.destination));
    // The skipped ones come with their row alone: a client has every row of this one read.
    expect(items.map((item) => [item.entry.destination, item.entry.summary.status, item.verify?.report.status])).toEqual([
      ['broken', 'invalid', undefined],
      ['empty-one', 'empty', undefined],
      ['loose', 'unmanaged', undefined],
      ['site-a', 'managed', 'intact'],
    ]);
    // Progress counts destinations (each read and verified in one pass) and the bytes hashed.
    expect(events.some((e) => e.event === 'progress' && e.data.job === job && e.data.total === 4 && e.data.bytes > 0)).toBe(true);
  });

  it('stamps each verify result with its time and fingerprint; a rescan that finds an output gone reports it stale, not intact', async () => {
    const { fixture, session, events } = await setup();
    value(await session.call('openWorkspace', { path: fixture.workspace }));
    const before = Date.now();
    const { job } = value(await session.call('verify', { destinations: ['site-a'] })) as { job: string };
    await jobEnd(session, job);
    const item = jobItems(events, job)[0] as DestinationRead;
    const stamp = item.verify!.stamp;
    expect(stamp.basis.stateSha256).toBe(item.entry.inspection.stateSha256);
    expect(Date.parse(stamp.verifiedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(stamp.basis.stateSha256).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(stamp.basis.listing).toMatch(/^sha256:/);
    const report = async () => JSON.parse((value(await session.call('exportReport', { format: 'json' })) as { content: string }).content);
    const scan = async () => jobEnd(session, (value(await session.call('scan', {})) as { job: string }).job);

    await scan();
    expect((await report()).destinations.find((d: { id: string }) => d.id === 'site-a').verify).toMatchObject({ health: 'intact' });
    await fs.rm(path.join(fixture.workspace, 'site-a', 'index.html'));
    await scan();
    const after = await report();
    expect(after.destinations.find((d: { id: string }) => d.id === 'site-a').verify).toMatchObject({
      health: 'stale',
      status: 'intact',
      freshness: { fresh: false, reason: 'listing_changed' },
    });
    expect(after.counts).toMatchObject({ intact: 0, stale: 1 });
  });

  it('cancels a running verify: it ends with a cancelled error event', async () => {
    const { fixture, session } = await setup({ bigOutputBytes: 4 * 1024 ** 3 });
    value(await session.call('openWorkspace', { path: fixture.workspace }));
    const { job } = value(await session.call('verify', { destinations: ['big'] })) as { job: string };
    const end = jobEnd(session, job);
    await new Promise<void>((resolve) => {
      const off = session.onEvent((event) => {
        if (event.event === 'progress' && event.data.job === job && event.data.bytes > 0) {
          off();
          resolve();
        }
      });
    });
    expect(value(await session.call('cancelJob', { job }))).toEqual({ cancelled: true });
    expect(await end).toMatchObject({ event: 'error', data: { job, error: { code: 'cancelled' } } });
    expect(value(await session.call('cancelJob', { job }))).toEqual({ cancelled: false });
  });

  it('compares with the given source bundle and explains the decision', async () => {
    const { fixture, session } = await setup();
    value(await session.call('openWorkspace', { path: fixture.workspace }));
    const result = value(await session.call('compare', { destination: 'site-a', source: fixture.source })) as {
      comparison: { decision: string };
      explanation: { title: string; sentence: string; normalReplaceAllowed: boolean };
      diff: { added: { path: string }[] };
    };
    expect(result.comparison.decision).toBe('replace');
    expect(result.explanation).toMatchObject({ title: 'Replace', normalReplaceAllowed: true });
    expect(result.explanation.sentence).toMatch(/older publication/);
    expect(result.diff.added.map((f) => f.path)).toEqual(['about.md']);
    expect(await session.call('compare', { destination: 'site-a' })).toMatchObject({ ok: false, error: { code: 'invalid_source' } });
  });

  it('answers the content diff of one output: on disk against what publishing the source writes, and refuses a path out of the destination', async () => {
    const { fixture, session } = await setup();
    value(await session.call('openWorkspace', { path: fixture.workspace }));
    await fs.writeFile(path.join(fixture.workspace, 'site-a', 'style.css'), 'body { color: red; }\n');
    const diff = value(
      await session.call('contentDiff', { destination: 'site-a', path: 'style.css', against: 'publish', source: fixture.source }),
    ) as { verdict: string; old: { side: { text?: string } }; new: { side: { text?: string } }; firstDifferingOffset: number };
    expect(diff).toMatchObject({ verdict: 'differs', firstDifferingOffset: 14 });
    expect(diff.old.side.text).toBe('body { color: red; }\n');
    expect(diff.new.side.text).toBe('body { color: black; }\n');
    const recorded = value(await session.call('contentDiff', { destination: 'site-a', path: 'style.css' })) as {
      against: string;
      status: string;
    };
    expect(recorded).toMatchObject({ against: 'recorded', status: 'size_mismatch' });
    expect(await session.call('contentDiff', { destination: 'site-a', path: '../loose/notes.txt', source: fixture.source })).toMatchObject({
      ok: false,
      error: { code: 'refused' },
    });
    expect(await session.call('contentDiff', { destination: 'site-a', path: '' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
  });

  it('exports the last scan as CSV with one row per destination', async () => {
    const { fixture, session } = await setup();
    value(await session.call('openWorkspace', { path: fixture.workspace }));
    const { job } = value(await session.call('scan', {})) as { job: string };
    await jobEnd(session, job);
    const csv = value(await session.call('exportReport', { format: 'csv' })) as { content: string; mediaType: string };
    expect(csv.mediaType).toBe('text/csv');
    const lines = csv.content.trimEnd().split('\r\n');
    expect(lines).toHaveLength(5);
    expect(lines.find((line) => line.startsWith('broken,'))).toContain(',invalid,');
  });

  it('plans a forced replace and applies it only with the typed destination id', async () => {
    const { fixture, session } = await setup();
    value(await session.call('openWorkspace', { path: fixture.workspace }));
    const planned = value(
      await session.call('planReplace', {
        destination: 'loose',
        mode: 'force',
        source: fixture.source,
        pipelineId: 'docs',
        destinationId: 'site-loose',
      }),
    ) as { planId: string; confirmText: string };
    expect(planned.confirmText).toBe('site-loose');
    expect(await session.call('applyPlan', { planId: planned.planId, confirm: 'loose' })).toMatchObject({
      ok: false,
      error: { code: 'confirmation_required' },
    });
    await fs.access(path.join(fixture.workspace, 'loose', 'notes.txt'));
    const other = value(
      await session.call('planReplace', {
        destination: 'empty-one',
        mode: 'force',
        source: fixture.source,
        pipelineId: 'docs',
        destinationId: 'empty-one',
      }),
    ) as { planId: string };
    const { job } = value(await session.call('applyPlan', { planId: planned.planId, confirm: 'site-loose' })) as { job: string };
    const end = jobEnd(session, job);
    // One replace at a time: a second apply while the first runs is refused, and its plan kept.
    expect(await session.call('applyPlan', { planId: other.planId, confirm: 'empty-one' })).toMatchObject({
      ok: false,
      error: { code: 'refused' },
    });
    expect(await end).toMatchObject({ event: 'result', data: { method: 'applyPlan', result: { ok: true } } });
    await expect(fs.access(path.join(fixture.workspace, 'loose', 'notes.txt'))).rejects.toThrow();
    expect(await session.call('applyPlan', { planId: planned.planId, confirm: 'site-loose' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    const { job: second } = value(await session.call('applyPlan', { planId: other.planId, confirm: 'empty-one' })) as { job: string };
    expect(await jobEnd(session, second)).toMatchObject({ event: 'result', data: { result: { ok: true } } });
  });

  it('applies a forced replace holding a nested managed destination only when includeNested acknowledges it', async () => {
    const { fixture, session } = await setup();
    value(await session.call('openWorkspace', { path: fixture.workspace }));
    const inner = path.join(fixture.workspace, 'loose', 'inner');
    await fs.mkdir(inner);
    await fs.copyFile(path.join(fixture.workspace, 'site-a', '.distributor.json'), path.join(inner, '.distributor.json'));
    const planned = value(
      await session.call('planReplace', {
        destination: 'loose',
        mode: 'force',
        source: fixture.source,
        pipelineId: 'docs',
        destinationId: 'site-loose',
      }),
    ) as { planId: string; plan: { nestedDestinations: string[] } };
    expect(planned.plan.nestedDestinations).toEqual(['inner']);
    expect(await session.call('applyPlan', { planId: planned.planId, confirm: 'site-loose' })).toMatchObject({
      ok: false,
      error: { code: 'confirmation_required', details: { nestedDestinations: ['inner'] } },
    });
    await fs.access(path.join(inner, '.distributor.json'));
    // The same plan, now acknowledged: refusing it did not use it up.
    const { job } = value(await session.call('applyPlan', { planId: planned.planId, confirm: 'site-loose', includeNested: true })) as {
      job: string;
    };
    expect(await jobEnd(session, job)).toMatchObject({ event: 'result', data: { result: { ok: true } } });
    await expect(fs.access(inner)).rejects.toThrow();
  });

  it('ends the apply of a stale plan with its ApplyResult as the job result, after the destination as it is now', async () => {
    const { fixture, session, events } = await setup();
    value(await session.call('openWorkspace', { path: fixture.workspace }));
    const planned = value(await session.call('planReplace', { destination: 'site-a', mode: 'replace', source: fixture.source })) as {
      planId: string;
      confirmText?: string;
    };
    expect(planned.confirmText).toBeUndefined();
    await fs.writeFile(path.join(fixture.workspace, 'site-a', 'index.html'), 'edited after the plan');
    const { job } = value(await session.call('applyPlan', { confirmed: true, planId: planned.planId })) as { job: string };
    const end = await jobEnd(session, job);
    expect(end).toMatchObject({
      event: 'result',
      data: {
        method: 'applyPlan',
        result: { ok: false, changed: false, stateWritten: false, stagingLeft: false, error: { code: 'stale_plan' } },
      },
    });
    const items = jobItems(events, job);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ entry: { destination: 'site-a', summary: { status: 'managed' } } });
    // Nothing new was written, so nothing is verified on the apply's behalf.
    expect((items[0] as { verify?: unknown }).verify).toBeUndefined();
    expect(events.findIndex((event) => event.event === 'items' && event.data.job === job)).toBeLessThan(events.indexOf(end));
  });

  it('sends the destination after a completed apply as its row and its verify against the new state', async () => {
    const { fixture, session, events } = await setup();
    value(await session.call('openWorkspace', { path: fixture.workspace }));
    const planned = value(await session.call('planReplace', { destination: 'site-a', mode: 'replace', source: fixture.source })) as {
      planId: string;
    };
    const { job } = value(await session.call('applyPlan', { confirmed: true, planId: planned.planId })) as { job: string };
    expect(await jobEnd(session, job)).toMatchObject({ event: 'result', data: { result: { ok: true, stateWritten: true } } });
    // The progress events name the apply's phases, for the UI's "staging 3,400 / 10,000" (a backup is kept by default).
    const phases = events.flatMap((event) =>
      event.event === 'progress' && event.data.job === job && event.data.step ? [event.data.step.phase] : [],
    );
    expect(new Set(phases)).toEqual(
      new Set(['check', 'verify', 'stage', 'backup', 'remove_state', 'delete', 'move', 'write_state', 'cleanup', 'done']),
    );
    expect(jobItems(events, job)[0]).toMatchObject({
      entry: { destination: 'site-a', summary: { status: 'managed', outputCount: 3 } },
      verify: { destination: 'site-a', report: { status: 'intact' } },
    });
    const report = JSON.parse((value(await session.call('exportReport', { format: 'json' })) as { content: string }).content);
    expect(JSON.stringify(report)).toContain('intact');
  });
});
