// remote/: may be imported by cli/. The agent side of issue 15: the Session of electron/service
// spoken as JSON lines (shared/agentProtocol.ts) over a pipe, the way server/ speaks it over HTTP.
// Every call goes through `session.call`, so the agent refuses what the local session refuses (ids
// resolved against the workspace it opened, typed confirmations, one apply at a time, no
// Electron-only method). Must never write anything but protocol lines to `output` (logs go to `log`,
// stderr), and never crash on a line: a bad one is answered with a protocolError and skipped.

import { hostname } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import {
  AGENT_PROTOCOL_VERSION,
  callSchema,
  decodeLine,
  encodeMessage,
  LineFramer,
  MAX_MESSAGE_CHARS,
  type AgentMessage,
} from '../../shared/agentProtocol';
import { isMethodName, methods } from '../../shared/api';
import { APP_VERSION } from '../engine/appVersion';
import type { Session } from '../service/session';

export interface AgentOptions {
  session: Session;
  input: Readable;
  /** Writes one protocol line; must not throw (a closed pipe is the client gone). */
  write: (line: string) => void;
  log: (line: string) => void;
  maxLineChars?: number;
}

/** Serves until `input` ends; then cancels the reading jobs, lets a running apply finish, and closes the session. */
export async function serveAgent({ session, input, write, log, maxLineChars = MAX_MESSAGE_CHARS }: AgentOptions): Promise<void> {
  const send = (message: AgentMessage) => write(encodeMessage(message));
  const running = new Map<string, string>();
  const ended = new Map<string, () => void>();
  const finished = new Set<string>();
  const unsubscribe = session.onEvent((event) => {
    send({ type: 'event', event: event.event, data: event.data });
    if (event.event === 'result' || event.event === 'error') {
      finished.add(event.data.job);
      running.delete(event.data.job);
      ended.get(event.data.job)?.();
    }
  });
  send({
    type: 'hello',
    tool: 'distributor-inspector',
    protocol: AGENT_PROTOCOL_VERSION,
    version: APP_VERSION,
    host: hostname(),
    platform: process.platform,
  });

  const pending = new Set<Promise<void>>();
  const handle = (text: string) => {
    if (text.trim() === '') return;
    const decoded = decodeLine(text, callSchema);
    if (!decoded.ok) {
      log(`agent: skipped a line from the client: ${decoded.reason}: ${decoded.excerpt}`);
      send({ type: 'protocolError', message: `the agent skipped a line: ${decoded.reason}` });
      return;
    }
    const { id, method, request } = decoded.value;
    const call = session.call(method, request).then((result) => {
      if (result.ok && isMethodName(method) && 'job' in methods[method]) {
        const job = (result.value as { job: string }).job;
        if (!finished.has(job)) running.set(job, method);
      }
      send({ type: 'reply', id, result: result as never });
    });
    pending.add(call);
    void call.finally(() => pending.delete(call));
  };

  const framer = new LineFramer(maxLineChars);
  const decoder = new StringDecoder('utf8');
  const onFrames = (chunk: string) => {
    for (const frame of framer.push(chunk)) {
      if (frame.kind === 'line') handle(frame.text);
      else {
        log(`agent: skipped a line of ${frame.lengthChars} characters (more than ${maxLineChars}): ${frame.excerpt}`);
        send({ type: 'protocolError', message: `the agent skipped a line of ${frame.lengthChars} characters: more than ${maxLineChars}` });
      }
    }
  };
  await new Promise<void>((resolve) => {
    input.on('data', (chunk: Buffer) => onFrames(decoder.write(chunk)));
    input.on('end', () => {
      onFrames(decoder.end());
      const left = framer.pending();
      if (left) log(`agent: the client's last line was cut off after ${left.lengthChars} characters: ${left.excerpt}`);
      resolve();
    });
    input.on('error', (cause) => {
      log(`agent: reading from the client failed: ${cause.message}`);
      resolve();
    });
  });

  // The client is gone. A scan or a verify is no use to anyone now; a replace is left to finish, so
  // the destination is never left mid-apply on purpose (its state file says what is on disk anyway).
  await Promise.all(pending);
  const endings = [...running].map(([job, method]) => {
    const done = new Promise<void>((resolve) => ended.set(job, resolve));
    if (method !== 'applyPlan') void session.call('cancelJob', { job });
    return done;
  });
  await Promise.all(endings);
  unsubscribe();
  await session.close();
}
