import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  agentMessageSchema,
  AGENT_PROTOCOL_VERSION,
  checkHello,
  decodeLine,
  encodeMessage,
  helloSchema,
  LineFramer,
} from './agentProtocol';

const hello = {
  type: 'hello',
  tool: 'distributor-inspector',
  protocol: AGENT_PROTOCOL_VERSION,
  version: '1.0.0',
  host: 'h',
  platform: 'linux',
} as const;

describe('LineFramer', () => {
  it('keeps a partial line until its end arrives, however the chunks fall', () => {
    const framer = new LineFramer(1000);
    expect(framer.push('{"a":')).toEqual([]);
    expect(framer.pending()).toMatchObject({ lengthChars: 5 });
    expect(framer.push('1}\n{"b"')).toEqual([{ kind: 'line', text: '{"a":1}' }]);
    expect(framer.push(':2}\r\n')).toEqual([{ kind: 'line', text: '{"b":2}' }]);
    expect(framer.pending()).toBeUndefined();
  });

  it('reports a line longer than the cap once, without keeping it, and reads the next line', () => {
    const framer = new LineFramer(10);
    expect(framer.push('x'.repeat(8))).toEqual([]);
    expect(framer.push('y'.repeat(100))).toEqual([]);
    expect(framer.push('zz\nok\n')).toEqual([
      { kind: 'overlong', lengthChars: 110, excerpt: expect.stringMatching(/^x{8}y+/) },
      { kind: 'line', text: 'ok' },
    ]);
  });

  it('cuts any text into the same lines whatever the chunk boundaries (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 20 }), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 10 }), (lines, cuts) => {
        const text = lines.map((line) => line.replace(/[\r\n]/g, '')).join('\n') + '\n';
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const framer = new LineFramer(1000);
        const frames = [];
        let at = 0;
        for (const point of [...points, text.length]) {
          frames.push(...framer.push(text.slice(at, point)));
          at = point;
        }
        expect(frames).toEqual(
          text
            .slice(0, -1)
            .split('\n')
            .map((line) => ({ kind: 'line', text: line })),
        );
      }),
    );
  });
});

describe('decodeLine', () => {
  it('reads a hello and says why a banner line is not one', () => {
    expect(decodeLine(JSON.stringify(hello), helloSchema)).toEqual({ ok: true, value: hello });
    expect(decodeLine('Welcome to \u001b[1mfar\u001b[0m', helloSchema)).toMatchObject({
      ok: false,
      reason: 'not JSON',
      excerpt: 'Welcome to \\x1b[1mfar\\x1b[0m',
    });
    expect(decodeLine('{"type":"hello"}', helloSchema)).toMatchObject({ ok: false, reason: expect.stringContaining('not a message') });
  });

  it('never throws, whatever the line (property)', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (line) => void decodeLine(line, agentMessageSchema)));
  });

  it('encodes every message on one line, line breaks in strings included', () => {
    const line = encodeMessage({ type: 'protocolError', message: 'a\nb\r\nc' });
    expect(line.indexOf('\n')).toBe(line.length - 1);
    expect(decodeLine(line.slice(0, -1), agentMessageSchema)).toMatchObject({ ok: true, value: { message: 'a\nb\r\nc' } });
  });
});

describe('checkHello', () => {
  it('accepts its own protocol and refuses another with both versions and the install command', () => {
    expect(checkHello(hello, '1.0.0')).toEqual({ ok: true });
    const refused = checkHello({ ...hello, protocol: AGENT_PROTOCOL_VERSION + 1, version: '2.0.0' }, '1.0.0');
    expect(refused).toMatchObject({ ok: false, message: expect.stringContaining('npm install -g distributor-inspector@1.0.0') });
    expect(refused.ok === false && refused.message).toContain('2.0.0');
  });

  it('refuses an agent of protocol 2, whose verify items carry no row, naming the install command', () => {
    const older = checkHello({ ...hello, protocol: 2, version: '0.9.0' }, '1.0.0');
    expect(older).toMatchObject({ ok: false, message: expect.stringContaining('(agent protocol 2)') });
    expect(older.ok === false && older.message).toContain('npm install -g distributor-inspector@1.0.0');
  });
});
