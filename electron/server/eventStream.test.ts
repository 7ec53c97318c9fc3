import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { parseSseChunk } from '../../renderer/api/sse';
import type { ApiEvent } from '../../shared/api';
import type { Session } from '../service/session';
import { openEventStream } from './eventStream';

/** A response that records each write, and a session whose events the test sends. */
function stream() {
  const writes: string[] = [];
  const request = new EventEmitter() as unknown as IncomingMessage;
  const response = Object.assign(new EventEmitter(), {
    destroyed: false,
    writeHead: () => response,
    flushHeaders: () => undefined,
    write: (text: string) => writes.push(text) > 0,
  }) as unknown as ServerResponse;
  const listeners = new Set<(event: ApiEvent) => void>();
  const session = {
    onEvent(listener: (event: ApiEvent) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  } as unknown as Session;
  openEventStream(request, response, session, {}, { instance: 'run-1', heartbeatIntervalMs: 60_000 });
  const emit = (event: ApiEvent) => listeners.forEach((listener) => listener(event));
  return { writes, emit, request, listeners };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const item = (n: number): ApiEvent => ({ event: 'progress', data: { job: 'job-1', method: 'scan', done: n, total: 3, bytes: 0 } });

describe('the event stream', () => {
  it('sends the frames of one turn of the event loop in one write, in the order they were made', async () => {
    const { writes, emit } = stream();
    await turn();
    expect(writes).toHaveLength(1);
    expect(parseSseChunk(writes[0]!).frames.map((frame) => frame.event)).toEqual(['ready']);
    emit(item(1));
    emit(item(2));
    emit(item(3));
    expect(writes).toHaveLength(1);
    await turn();
    expect(writes).toHaveLength(2);
    const { frames, rest } = parseSseChunk(writes[1]!);
    expect(rest).toBe('');
    expect(frames.map((frame) => (JSON.parse(frame.data) as { done: number }).done)).toEqual([1, 2, 3]);
  });

  it('writes nothing more and leaves the session once the page is gone', async () => {
    const { writes, emit, request, listeners } = stream();
    await turn();
    emit(item(1));
    request.emit('close');
    await turn();
    expect(writes).toHaveLength(1);
    expect(listeners.size).toBe(0);
  });
});
