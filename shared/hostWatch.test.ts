// The host watch's wire rules (hostWatch.ts): what a `destinationChanges` event may hold, and the
// client's flood bound, which an agent keeping the interval never meets and a flooding one always does.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { events, methods } from './api';
import {
  CHANGES_INTERVAL_MS,
  ChangeRate,
  destinationChangesSchema,
  FLOOD_EVENTS,
  FLOOD_WINDOW_MS,
  hostWatchSchema,
  MAX_CHANGES_PER_EVENT,
} from './hostWatch';

describe('the destinationChanges event', () => {
  const good = { destinations: ['docs-eu', 'docs-us'], at: '2026-12-06T04:00:00.000Z', complete: true };

  it('is in the API table, beside the watchDestinations method that asks for it', () => {
    expect(events.destinationChanges).toBe(destinationChangesSchema);
    expect(methods.watchDestinations.response).toBe(hostWatchSchema);
    expect(destinationChangesSchema.safeParse(good).success).toBe(true);
    expect(destinationChangesSchema.safeParse({ ...good, complete: false, reason: 'its watch failed: EMFILE' }).success).toBe(true);
  });

  it('refuses more ids than one event may carry, an empty or overlong id, and a missing completeness', () => {
    const ids = (count: number) => Array.from({ length: count }, (_, index) => `d-${index}`);
    expect(destinationChangesSchema.safeParse({ ...good, destinations: ids(MAX_CHANGES_PER_EVENT) }).success).toBe(true);
    expect(destinationChangesSchema.safeParse({ ...good, destinations: ids(MAX_CHANGES_PER_EVENT + 1) }).success).toBe(false);
    expect(destinationChangesSchema.safeParse({ ...good, destinations: [''] }).success).toBe(false);
    expect(destinationChangesSchema.safeParse({ ...good, destinations: ['x'.repeat(201)] }).success).toBe(false);
    expect(destinationChangesSchema.safeParse({ destinations: [], at: good.at }).success).toBe(false);
  });

  it('never throws on any input', () => {
    fc.assert(fc.property(fc.anything(), (value) => void destinationChangesSchema.safeParse(value)));
  });
});

describe('the client’s flood bound on change events', () => {
  it('is never met by an agent that keeps the interval, however its events bunch up after a stall of the client', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: CHANGES_INTERVAL_MS, max: 5 * CHANGES_INTERVAL_MS }), { minLength: 1, maxLength: 3000 }),
        fc.integer({ min: 0, max: 60_000 }),
        (gaps, stallMs) => {
          // The agent's sending times; the client reads everything sent during its stall at once, when it ends.
          const rate = new ChangeRate();
          let sentMs = 0;
          return gaps.every((gap) => {
            sentMs += gap;
            return rate.note(Math.max(sentMs, stallMs)) === undefined;
          });
        },
      ),
    );
  });

  it('is met by more than the bound in one window, and keeps no more than the bound', () => {
    const rate = new ChangeRate();
    for (let index = 0; index < FLOOD_EVENTS; index++) expect(rate.note(1000 + index)).toBeUndefined();
    expect(rate.note(1000 + FLOOD_EVENTS)).toMatch(/^more than 1,000 change events in 10 s/);
    // A window later, the same agent is heard again.
    expect(rate.note(1000 + FLOOD_WINDOW_MS + FLOOD_EVENTS)).toBeUndefined();
  });
});
