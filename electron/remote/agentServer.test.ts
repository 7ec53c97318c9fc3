import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { agentMessageSchema, AGENT_PROTOCOL_VERSION, decodeLine, encodeMessage } from '../../shared/agentProtocol';
import { Session } from '../service/session';
import { serveAgent } from './agentServer';

async function agentSaying(lines: string[], maxLineChars?: number) {
  const input = new PassThrough();
  const out: string[] = [];
  const logs: string[] = [];
  const served = serveAgent({
    session: new Session({ transport: 'agent' }),
    input,
    write: (line) => out.push(line),
    log: (line) => logs.push(line),
    maxLineChars,
  });
  for (const line of lines) input.write(line);
  // Let each call be answered before the input ends.
  await new Promise((resolve) => setTimeout(resolve, 200));
  input.end();
  await served;
  const messages = out.map((line) => {
    expect(line.endsWith('\n')).toBe(true);
    const decoded = decodeLine(line.slice(0, -1), agentMessageSchema);
    if (!decoded.ok) throw new Error(`the agent wrote a line outside the protocol: ${line}`);
    return decoded.value;
  });
  return { messages, logs };
}

describe('serveAgent', () => {
  it('speaks first with its hello, then answers each call by id through the Session', async () => {
    const { messages } = await agentSaying([
      encodeMessage({ type: 'call', id: 7, method: 'appInfo', request: {} }),
      encodeMessage({ type: 'call', id: 8, method: 'nope', request: {} }),
    ]);
    expect(messages[0]).toMatchObject({ type: 'hello', tool: 'distributor-inspector', protocol: AGENT_PROTOCOL_VERSION });
    expect(messages).toContainEqual({ type: 'reply', id: 7, result: { ok: true, value: expect.objectContaining({ transport: 'agent' }) } });
    expect(messages).toContainEqual({
      type: 'reply',
      id: 8,
      result: { ok: false, error: expect.objectContaining({ code: 'unknown_method' }) },
    });
  });

  it('answers garbage, a half call and an overlong line with protocolError and keeps serving', async () => {
    const { messages, logs } = await agentSaying(
      [
        'hello there\n',
        '{"type":"call","id":1}\n',
        `${'x'.repeat(5000)}\n`,
        encodeMessage({ type: 'call', id: 2, method: 'appInfo', request: {} }),
        '{"cut',
      ],
      1000,
    );
    expect(messages.filter((message) => message.type === 'protocolError')).toHaveLength(3);
    expect(messages).toContainEqual(expect.objectContaining({ type: 'reply', id: 2 }));
    expect(logs.join('\n')).toContain('more than 1000');
    expect(logs.join('\n')).toContain('cut off');
  });
});
