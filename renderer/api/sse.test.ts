import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSseChunk } from './sse';

describe('parseSseChunk', () => {
  it('reads named events with multi-line data and skips comments', () => {
    const { frames, rest } = parseSseChunk(': keep-alive\n\nevent: progress\ndata: {"a":\ndata: 1}\n\nevent: ready\ndata: {}\n\n');
    expect(frames).toEqual([
      { event: 'progress', data: '{"a":\n1}' },
      { event: 'ready', data: '{}' },
    ]);
    expect(rest).toBe('');
  });

  it('keeps a partial frame for the next chunk', () => {
    const first = parseSseChunk('event: item\ndata: {"x"');
    expect(first.frames).toEqual([]);
    const second = parseSseChunk(first.rest + ':1}\n\n');
    expect(second.frames).toEqual([{ event: 'item', data: '{"x":1}' }]);
  });

  it('yields the same frames however the stream is cut into chunks', () => {
    const payloads = fc.array(fc.record({ event: fc.constantFrom('progress', 'item', 'result'), data: fc.json() }), { maxLength: 8 });
    fc.assert(
      fc.property(payloads, fc.array(fc.nat(), { maxLength: 6 }), fc.constantFrom('\r\n', '\n'), (frames, cuts, end) => {
        const wire = frames.map((f) => `event: ${f.event}${end}data: ${f.data}${end}${end}`).join('');
        const points = [...new Set(cuts.map((c) => c % (wire.length + 1)))].sort((a, b) => a - b);
        const seen: { event: string; data: string }[] = [];
        let buffer = '';
        let from = 0;
        for (const point of [...points, wire.length]) {
          const parsed = parseSseChunk(buffer + wire.slice(from, point));
          buffer = parsed.rest;
          seen.push(...parsed.frames);
          from = point;
        }
        expect(seen).toEqual(frames);
      }),
    );
  });
});
