import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EarlyEvents } from './earlyEvents';

const limits = { perJob: 3, events: 5, chars: 100 };
const event = (n: number) => ({ event: 'progress', data: { n } });

describe('EarlyEvents', () => {
  it('gives back the events of a job in order, once, and forgets them', () => {
    const early = new EarlyEvents(limits);
    expect(early.keep('a', event(1), 10)).toBeUndefined();
    expect(early.keep('b', event(2), 10)).toBeUndefined();
    expect(early.keep('a', event(3), 10)).toBeUndefined();
    expect(early.take('a')).toEqual([event(1), event(3)]);
    expect(early.take('a')).toEqual([]);
    expect(early.size).toEqual({ jobs: 1, events: 1, chars: 10 });
  });

  it('refuses one event past the limit of a job, naming the job, and keeps nothing more', () => {
    const early = new EarlyEvents(limits);
    for (let i = 0; i < 3; i++) expect(early.keep('job-1', event(i), 1)).toBeUndefined();
    expect(early.keep('job-1', event(4), 1)).toBe('more than 3 events for job "job-1" before its start was answered');
    expect(early.size).toEqual({ jobs: 1, events: 3, chars: 3 });
  });

  it('refuses past the total of events or of characters, however the job ids are spread', () => {
    const byEvents = new EarlyEvents(limits);
    for (let i = 0; i < 5; i++) expect(byEvents.keep(`ghost-${i}`, event(i), 1)).toBeUndefined();
    expect(byEvents.keep('ghost-5', event(5), 1)).toBe('more than 5 events for jobs whose start was not answered (5 job ids)');
    const byChars = new EarlyEvents({ ...limits, chars: 2 * 1024 * 1024 });
    expect(byChars.keep('a', event(0), 2 * 1024 * 1024)).toBeUndefined();
    expect(byChars.keep('b', event(1), 1)).toBe('more than 2 MiB of events for jobs whose start was not answered');
  });

  it('never holds more than its limits, whatever an agent sends and the client takes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.record({ keep: fc.nat(20), chars: fc.nat(40) }), fc.record({ take: fc.nat(20) })), { maxLength: 200 }),
        (steps) => {
          const early = new EarlyEvents(limits);
          for (const step of steps) {
            if ('take' in step) early.take(`job-${step.take}`);
            else early.keep(`job-${step.keep}`, event(0), step.chars);
            const { events, chars } = early.size;
            expect(events).toBeLessThanOrEqual(limits.events);
            expect(chars).toBeLessThanOrEqual(limits.chars);
          }
        },
      ),
    );
  });
});
