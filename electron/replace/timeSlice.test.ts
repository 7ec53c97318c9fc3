import { describe, expect, it } from 'vitest';
import { timeSlicer } from './timeSlice';

describe('timeSlicer', () => {
  it('resolves at once within a slice and waits for the event loop once the slice has run out', async () => {
    let clock = 0;
    const slicer = timeSlicer(20, () => clock);
    let immediateRan = false;
    setImmediate(() => (immediateRan = true));
    clock = 5;
    expect(slicer.due()).toBe(false);
    await slicer.yield();
    expect(immediateRan).toBe(false);
    clock = 25;
    expect(slicer.due()).toBe(true);
    await slicer.yield();
    expect(immediateRan).toBe(true);
    // A new slice starts after the yield.
    expect(slicer.due()).toBe(false);
  });
});
