import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import { fail } from '../../shared/apiError';
import { initialResult } from '../replace/applyResult';
import { JobRegistry } from './jobRegistry';

function registry(progressIntervalMs = 0, checkAnswers?: boolean) {
  const events: ApiEvent[] = [];
  const jobs = new JobRegistry((event) => events.push(event), { progressIntervalMs, checkAnswers });
  const end = (job: string) =>
    new Promise<ApiEvent>((resolve) => {
      const poll = setInterval(() => {
        const found = events.find((e) => (e.event === 'result' || e.event === 'error') && e.data.job === job);
        if (found) {
          clearInterval(poll);
          resolve(found);
        }
      }, 1);
    });
  return { jobs, events, end };
}

/** A verify job's item: the destination's row and its verify, as one read found them. */
function verifiedRead(destination: string) {
  return {
    entry: {
      destination,
      inspection: { path: `/w/${destination}`, status: 'managed' as const, issues: [], hasContent: true },
      summary: { status: 'managed' as const, outputCount: 0, errorCount: 0, warningCount: 0 },
    },
    verify: {
      destination,
      report: { status: 'intact' as const, outputs: [], extra: [] },
      stamp: { verifiedAt: '2026-12-04T06:00:00.000Z', basis: {} },
    },
  };
}

describe('JobRegistry', () => {
  it("lets a job's many concurrent waits listen to its signal without Node's leak warning", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const { jobs, end } = registry();
      const job = jobs.start('verify', async (context) => {
        const waits = Array.from(
          { length: 50 },
          () => new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true })),
        );
        jobs.cancel(job);
        await Promise.all(waits);
        return { intact: 0, drifted: 0, skipped: 0 };
      });
      await end(job);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => warning.name)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('hands out the id before the first event, then ends with exactly one result', async () => {
    const { jobs, events, end } = registry();
    const job = jobs.start('verify', async (context) => {
      context.progress(1, 2, 10);
      context.progress(2, 2, 20);
      return { intact: 1, drifted: 0, skipped: 0 };
    });
    expect(events).toEqual([]);
    expect(await end(job)).toEqual({ event: 'result', data: { job, method: 'verify', result: { intact: 1, drifted: 0, skipped: 0 } } });
    expect(events.filter((e) => e.event === 'result' || e.event === 'error')).toHaveLength(1);
    expect(events.filter((e) => e.event === 'progress').at(-1)).toMatchObject({ data: { done: 2, total: 2, bytes: 20 } });
    expect(jobs.runningCount).toBe(0);
  });

  it('sends the last progress before the result even when throttled', async () => {
    const { jobs, events, end } = registry(60_000);
    const job = jobs.start('scan', async (context) => {
      for (let done = 1; done <= 100; done++) context.progress(done, 100, 0);
      return { counts: { total: 100, empty: 100, unmanaged: 0, managed: 0, invalid: 0 } };
    });
    await end(job);
    const progress = events.filter((e) => e.event === 'progress');
    expect(progress.length).toBeLessThanOrEqual(2);
    expect(progress.at(-1)).toMatchObject({ data: { done: 100 } });
  });

  it("sends an apply's phase the moment it changes, even when throttled, with the phase's own count", async () => {
    const { jobs, events, end } = registry(60_000);
    const job = jobs.start('applyPlan', async (context) => {
      for (let done = 0; done <= 50; done++) context.progress(done, 101, 0, { phase: 'stage', done, total: 50 });
      for (let done = 0; done <= 50; done++) context.progress(50 + done, 101, 0, { phase: 'move', done, total: 50 });
      context.progress(101, 101, 0, { phase: 'write_state', done: 1, total: 1 });
      throw fail('cancelled', 'stop here: only the progress events matter');
    });
    await end(job);
    const steps = events.flatMap((e) => (e.event === 'progress' ? [e.data.step] : []));
    expect(steps.map((step) => step?.phase)).toEqual(['stage', 'move', 'write_state']);
    expect(steps[0]).toEqual({ phase: 'stage', done: 0, total: 50 });
  });

  it('turns a thrown bug into an internal error event and a deliberate failure into its own code', async () => {
    const { jobs, end } = registry();
    const bug = jobs.start('scan', async () => {
      throw new TypeError('x is undefined');
    });
    expect(await end(bug)).toMatchObject({ event: 'error', data: { error: { code: 'internal', message: 'x is undefined' } } });
    const refused = jobs.start('applyPlan', async () => {
      throw fail('stale_plan', 'the destination changed since this plan: plan again');
    });
    expect(await end(refused)).toMatchObject({ event: 'error', data: { error: { code: 'stale_plan' } } });
  });

  it('reports cancelled, also for a job that ignores the signal and finishes anyway', async () => {
    const { jobs, end } = registry();
    let release: () => void = () => undefined;
    let running: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (running = resolve));
    const job = jobs.start('verify', async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
        running();
      });
      return { intact: 1, drifted: 0, skipped: 0 };
    });
    await started;
    expect(jobs.cancel(job)).toBe(true);
    expect(jobs.cancel(job)).toBe(false);
    release();
    expect(await end(job)).toMatchObject({ event: 'error', data: { job, error: { code: 'cancelled' } } });
    expect(jobs.cancel('job-unknown')).toBe(false);
  });

  it('reports the result of an apply that finished after a cancel, never cancelled', async () => {
    const { jobs, end } = registry();
    let release: () => void = () => undefined;
    let running: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (running = resolve));
    const done = { ...initialResult('force', '/dest'), ok: true, changed: true, oldTouched: true, stateWritten: true };
    const job = jobs.start('applyPlan', async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
        running();
      });
      return done;
    });
    await started;
    expect(jobs.cancel(job)).toBe(true);
    release();
    expect(await end(job)).toMatchObject({ event: 'result', data: { job, result: { ok: true, changed: true } } });
  });

  it('close() cancels every running job and waits for each ending', async () => {
    const { jobs, events } = registry();
    const started: Promise<void>[] = [];
    const ids = [1, 2, 3].map(() => {
      let running: () => void = () => undefined;
      started.push(new Promise<void>((resolve) => (running = resolve)));
      return jobs.start('verify', (context) => {
        const ending = new Promise<never>((_resolve, reject) =>
          context.signal.addEventListener('abort', () => reject(context.signal.reason)),
        );
        running();
        return ending;
      });
    });
    await Promise.all(started);
    await jobs.close();
    expect(
      events
        .filter((e) => e.event === 'error')
        .map((e) => e.data.job)
        .sort(),
    ).toEqual([...ids].sort());
  });

  it('checks each item against its schema: a malformed one is not sent, and the job ends with an internal error naming the field', async () => {
    const { jobs, events, end } = registry();
    const job = jobs.start('verify', async (context) => {
      context.item(verifiedRead('a'));
      const broken = verifiedRead('b');
      context.item({ ...broken, verify: { ...broken.verify, report: { ...broken.verify.report, status: 'fine' } } } as never);
      return { intact: 1, drifted: 0, skipped: 0 };
    });
    const ending = await end(job);
    expect(
      events
        .flatMap((e) => (e.event === 'items' ? (e.data.items as { entry: { destination: string } }[]) : []))
        .map((i) => i.entry.destination),
    ).toEqual(['a']);
    expect(ending).toMatchObject({ event: 'error', data: { error: { code: 'internal' } } });
    expect((ending.data as { error: { message: string } }).error.message).toContain(
      "verify: the engine's item is malformed at verify.report.status",
    );
  });

  it('checks the result against its schema like a response', async () => {
    const { jobs, end } = registry();
    const job = jobs.start('verify', async () => ({ intact: 1, drifted: 'none', skipped: 0 }) as never);
    const ending = await end(job);
    expect(ending).toMatchObject({ event: 'error', data: { error: { code: 'internal' } } });
    expect((ending.data as { error: { message: string } }).error.message).toContain("verify: the engine's result is malformed at drifted");
  });

  it('hands items and the result over as they are to a client in this process (checkAnswers false), the same objects', async () => {
    const { jobs, events, end } = registry(0, false);
    const item = { destination: 'a', report: { status: 'intact', outputs: [], extra: [] }, extraKey: 'not in the schema' };
    const result = { intact: 1, drifted: 0, skipped: 0, extraKey: 'not in the schema' };
    const job = jobs.start('verify', async (context) => {
      context.item(item as never);
      return result as never;
    });
    const ending = await end(job);
    expect((events.find((e) => e.event === 'items')?.data as { items: unknown[] }).items[0]).toBe(item);
    expect((ending.data as { result: unknown }).result).toBe(result);
  });

  it('sends the items of one turn of the event loop as one event, in order, before the progress and the ending after them', async () => {
    const { jobs, events, end } = registry(0);
    const report = verifiedRead;
    const job = jobs.start('verify', async (context) => {
      for (const id of ['a', 'b', 'c']) context.item(report(id));
      context.progress(3, 5, 0);
      context.item(report('d'));
      await new Promise((resolve) => setImmediate(resolve));
      context.item(report('e'));
      return { intact: 5, drifted: 0, skipped: 0 };
    });
    await end(job);
    const shape = events.map((e) =>
      e.event === 'items' ? (e.data.items as { entry: { destination: string } }[]).map((i) => i.entry.destination).join('') : e.event,
    );
    expect(shape).toEqual(['abc', 'progress', 'd', 'e', 'result']);
  });

  it('splits a turn of many items into events of at most 1,000 each, none lost', async () => {
    const { jobs, events, end } = registry(0, false);
    const job = jobs.start('scan', async (context) => {
      for (let i = 0; i < 2500; i += 1) context.item({ destination: `d${i}` } as never);
      return { counts: { total: 2500, managed: 0, unmanaged: 0, empty: 2500, invalid: 0 } } as never;
    });
    await end(job);
    const batches = events.flatMap((e) => (e.event === 'items' ? [e.data.items as { destination: string }[]] : []));
    expect(batches.map((batch) => batch.length)).toEqual([1000, 1000, 500]);
    expect(batches.flat().map((item) => item.destination)).toEqual(Array.from({ length: 2500 }, (_, i) => `d${i}`));
  });

  it("sends a cancelled job's items made before the cancel, then its one cancelled error", async () => {
    const { jobs, events, end } = registry(0);
    const job = jobs.start('scan', async (context) => {
      context.item({
        destination: 'a',
        inspection: { path: '/w/a', status: 'empty', issues: [], hasContent: false },
        summary: { status: 'empty', outputCount: 0, errorCount: 0, warningCount: 0 },
      });
      jobs.cancel(job);
      context.item({
        destination: 'b',
        inspection: { path: '/w/b', status: 'empty', issues: [], hasContent: false },
        summary: { status: 'empty', outputCount: 0, errorCount: 0, warningCount: 0 },
      });
      return { counts: { total: 2, managed: 0, unmanaged: 0, empty: 2, invalid: 0 } };
    });
    const ending = await end(job);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ending).toMatchObject({ event: 'error', data: { error: { code: 'cancelled' } } });
    const ofJob = events.filter((e) => 'job' in e.data && e.data.job === job);
    expect(ofJob.map((e) => e.event)).toEqual(['items', 'error']);
    expect((ofJob[0]!.data as { items: { destination: string }[] }).items.map((i) => i.destination)).toEqual(['a']);
  });
});
