import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { events, isMethodName, jobMethods, methodNames, methods, parseRequest } from './api';

describe('the API table', () => {
  it('answers any junk request to any method with a typed result, never a throw', () => {
    let refused = 0;
    fc.assert(
      fc.property(fc.constantFrom(...methodNames), fc.anything(), (method, junk) => {
        const parsed = parseRequest(method, junk);
        // Junk that happens to be a valid request (`{}` for appInfo) is a typed result too.
        if (parsed.ok) return;
        refused++;
        expect(parsed.error.code).toBe('bad_request');
        expect(parsed.error.message.startsWith(`${method}: `)).toBe(true);
        const issues = parsed.error.details?.issues as { path: unknown[]; code: string }[];
        expect(issues.length).toBeGreaterThan(0);
        for (const issue of issues) expect(Array.isArray(issue.path)).toBe(true);
      }),
      { numRuns: 500 },
    );
    // The refusals, whose shape is checked above, are nearly all of the runs.
    expect(refused).toBeGreaterThan(400);
  });

  it('rejects junk objects for every method that needs a field', () => {
    for (const method of methodNames) {
      expect(parseRequest(method, { surprise: 1 }), method).toMatchObject({
        ok: false,
        error: { details: { issues: expect.arrayContaining([expect.objectContaining({ path: ['surprise'], code: 'unknown_field' })]) } },
      });
    }
  });

  it('names a missing field in the message', () => {
    expect(parseRequest('inspectDestination', {})).toMatchObject({
      ok: false,
      error: { message: 'inspectDestination: destination: required field "destination" is missing' },
    });
  });

  it('names a mistyped field and the value it got in the message', () => {
    expect(parseRequest('exportReport', { format: 'xml' })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^exportReport: format: .*"xml"/) },
    });
  });

  it('accepts a well-formed request and returns the parsed value', () => {
    expect(parseRequest('openWorkspace', { path: '/tmp/w' })).toEqual({ ok: true, value: { path: '/tmp/w' } });
    expect(parseRequest('applyPlan', { planId: 'p1', confirm: 'site-a' })).toEqual({
      ok: true,
      value: { planId: 'p1', confirm: 'site-a' },
    });
  });

  it('lists scan, verify and applyPlan as jobs that answer with a job id', () => {
    expect([...jobMethods].sort()).toEqual(['applyPlan', 'scan', 'verify']);
    for (const method of jobMethods) expect(methods[method].response.safeParse({ job: 'j1' }).success).toBe(true);
  });

  it('types items and result events by their job method', () => {
    const inspection = { path: '/w/d1', status: 'empty', issues: [], hasContent: false };
    const summary = { status: 'empty', outputCount: 0, errorCount: 0, warningCount: 0 };
    const items = { job: 'j1', method: 'scan', items: [{ destination: 'd1', inspection, summary }] };
    expect(events.items.safeParse(items).success).toBe(true);
    expect(events.items.safeParse({ ...items, method: 'verify' }).success).toBe(false);
    expect(events.items.safeParse({ job: 'j1', method: 'scan', item: items.items[0] }).success).toBe(false);
    expect(events.result.safeParse({ job: 'j1', method: 'verify', result: { intact: 1, drifted: 0, skipped: 2 } }).success).toBe(true);
    expect(events.progress.safeParse({ job: 'j1', method: 'verify', done: 1, total: 2, bytes: 4096 }).success).toBe(true);
    expect(events.error.safeParse({ job: 'j1', method: 'scan', error: { code: 'cancelled', message: 'cancelled' } }).success).toBe(true);
  });

  it('knows its own method names and nothing else', () => {
    expect(isMethodName('scan')).toBe(true);
    expect(isMethodName('constructor')).toBe(false);
    expect(isMethodName('__proto__')).toBe(false);
  });
});
