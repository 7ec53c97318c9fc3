import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSseChunk, sseReader } from './sse';

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
    const first = parseSseChunk('event: items\ndata: {"x"');
    expect(first.frames).toEqual([]);
    const second = parseSseChunk(first.rest + ':1}\n\n');
    expect(second.frames).toEqual([{ event: 'items', data: '{"x":1}' }]);
  });

  it('yields the same frames however the stream is cut into chunks', () => {
    const payloads = fc.array(fc.record({ event: fc.constantFrom('progress', 'items', 'result'), data: fc.json() }), { maxLength: 8 });
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

  it('reads the same frames through a reader however the stream is cut, line ends mixed by frame', () => {
    const payloads = fc.array(fc.record({ event: fc.constantFrom('progress', 'items', 'result'), data: fc.json() }), { maxLength: 8 });
    const ends = fc.array(fc.constantFrom('\r\n', '\n'), { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(payloads, fc.array(fc.nat(), { maxLength: 12 }), ends, (frames, cuts, lineEnds) => {
        const wire = frames.map((f, i) => [`event: ${f.event}`, `data: ${f.data}`, '', ''].join(lineEnds[i % lineEnds.length]!)).join('');
        const points = [...new Set(cuts.map((c) => c % (wire.length + 1)))].sort((a, b) => a - b);
        const read = sseReader();
        const seen: { event: string; data: string }[] = [];
        let from = 0;
        for (const point of [...points, wire.length]) {
          seen.push(...read(wire.slice(from, point)));
          from = point;
        }
        expect(seen).toEqual(frames);
      }),
    );
  });

  it('holds a frame cut into many chunks until its end comes', () => {
    const read = sseReader();
    const data = JSON.stringify({ job: 'j', method: 'scan', items: Array.from({ length: 50 }, (_, i) => ({ destination: `d${i}` })) });
    const wire = `event: items\ndata: ${data}\n\n`;
    const heard: unknown[] = [];
    for (let at = 0; at < wire.length; at += 64) heard.push(...read(wire.slice(at, at + 64)));
    expect(heard).toEqual([{ event: 'items', data }]);
  });
});
