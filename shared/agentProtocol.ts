// The remote agent's wire (issue 15): the API table of shared/api.ts carried as JSON lines over a
// pipe (the agent's stdin and stdout, through OpenSSH). One JSON object per line, `\n`-terminated.
// The agent speaks first: one `hello` line (protocol version, tool version, host name, platform);
// then the client sends `call` lines and the agent answers each with a `reply` of the same id, and
// sends every job event as an `event` line. Pure: no Node, no streams. Must never throw on any input
// (a line that is not a message is a result, not an exception).

import { z } from 'zod';
import { apiErrorSchema } from './apiError';

/**
 * Bumped whenever a message changes shape; the client refuses an agent of another version. 2: a job's
 * items come batched. 3: a verify job's item is the destination's row with its verify, from one read.
 */
export const AGENT_PROTOCOL_VERSION = 3;

/** The agent's first line. `tool` tells an agent apart from anything else that prints JSON. */
export const helloSchema = z.object({
  type: z.literal('hello'),
  tool: z.literal('distributor-inspector'),
  protocol: z.number().int(),
  version: z.string().max(200),
  host: z.string().max(1000),
  platform: z.string().max(100),
});
export type AgentHello = z.infer<typeof helloSchema>;

/** Client → agent: one API call; `id` matches its reply. */
export const callSchema = z.strictObject({
  type: z.literal('call'),
  id: z.number().int().nonnegative(),
  method: z.string().max(200),
  request: z.unknown(),
});
export type AgentCall = z.infer<typeof callSchema>;

/** Agent → client: the ApiResult of one call, as the local Session answered it. */
export const replySchema = z.object({
  type: z.literal('reply'),
  id: z.number().int().nonnegative(),
  result: z.union([z.object({ ok: z.literal(true), value: z.unknown() }), z.object({ ok: z.literal(false), error: apiErrorSchema })]),
});
export type AgentReply = z.infer<typeof replySchema>;

/** What names a reply's call, even in a reply whose result breaks replySchema: so that call fails instead of waiting forever. */
export const replyHeaderSchema = z.object({ type: z.literal('reply'), id: z.number().int().nonnegative(), result: z.unknown() });

/** Agent → client: one API event (progress, item, result, error of a job), checked by the client against shared/api.ts. */
export const eventMessageSchema = z.object({ type: z.literal('event'), event: z.string().max(100), data: z.unknown() });
export type AgentEvent = z.infer<typeof eventMessageSchema>;

/** Agent → client: a line of the client's the agent could not use (not JSON, too long, not a call). */
export const protocolErrorSchema = z.object({ type: z.literal('protocolError'), message: z.string(), id: z.number().optional() });

export const agentMessageSchema = z.discriminatedUnion('type', [helloSchema, replySchema, eventMessageSchema, protocolErrorSchema]);
export type AgentMessage = z.infer<typeof agentMessageSchema>;

export function encodeMessage(message: AgentMessage | AgentCall): string {
  // JSON.stringify escapes every line break inside strings: one message is always one line.
  return `${JSON.stringify(message)}\n`;
}

/** What one line is: a message of the schema, or why it is not one (with the start of the line, for the report). */
export type DecodedLine<T> = { ok: true; value: T } | { ok: false; reason: string; excerpt: string };

/** The start of a line for a report: at most 120 characters, control characters as `\xNN`. */
export function excerptOf(line: string): string {
  const head = line.length > 120 ? `${line.slice(0, 120)}…` : line;
  return head.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export function decodeLine<T>(line: string, schema: z.ZodType<T>): DecodedLine<T> {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'not JSON', excerpt: excerptOf(line) };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const first = parsed.error.issues[0];
  const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  return { ok: false, reason: `not a message of the protocol (${where}${first?.message ?? 'invalid'})`, excerpt: excerptOf(line) };
}

/** A cut piece of the stream: a complete line, or the report that a line was longer than the cap (its text dropped). */
export type Frame = { kind: 'line'; text: string } | { kind: 'overlong'; lengthChars: number; excerpt: string };

/**
 * Splits a text stream into lines, however the chunks fall (a line split across many chunks, many
 * lines in one). A line longer than `maxLineChars` is not kept in memory: it is reported once as
 * `overlong` and its remainder skipped up to the next `\n`. `\r\n` counts as one line break (a login
 * banner from a Windows host). The text left without a final `\n` at the end is `pending()`.
 */
export class LineFramer {
  private buffer = '';
  private skipping: { lengthChars: number; excerpt: string } | undefined;

  /** May be raised once a peer has proved itself (the client: after the hello). */
  constructor(public maxLineChars: number) {}

  push(chunk: string): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf('\n', start);
      const piece = newline === -1 ? chunk.slice(start) : chunk.slice(start, newline);
      if (this.skipping) {
        this.skipping.lengthChars += piece.length;
      } else if (this.buffer.length + piece.length > this.maxLineChars) {
        const text = this.buffer + piece.slice(0, 200);
        this.skipping = { lengthChars: this.buffer.length + piece.length, excerpt: excerptOf(text) };
        this.buffer = '';
      } else {
        this.buffer += piece;
      }
      if (newline === -1) break;
      if (this.skipping) {
        frames.push({ kind: 'overlong', lengthChars: this.skipping.lengthChars, excerpt: this.skipping.excerpt });
        this.skipping = undefined;
      } else {
        const text = this.buffer.endsWith('\r') ? this.buffer.slice(0, -1) : this.buffer;
        frames.push({ kind: 'line', text });
      }
      this.buffer = '';
      start = newline + 1;
    }
    return frames;
  }

  /** The characters of a line not yet ended by `\n` (a stream cut mid-line), or undefined. */
  pending(): { lengthChars: number; excerpt: string } | undefined {
    if (this.skipping) return this.skipping;
    return this.buffer.length > 0 ? { lengthChars: this.buffer.length, excerpt: excerptOf(this.buffer) } : undefined;
  }
}

/** 256 MiB: far above any answer a workspace of 300,000 destinations gives, far below what would exhaust memory. */
export const MAX_MESSAGE_CHARS = 256 * 1024 * 1024;

/** What a client tolerates before the hello: a login banner or shell rc output, reported and skipped. */
export const MAX_PRELUDE_LINES = 200;
export const MAX_PRELUDE_LINE_CHARS = 64 * 1024;

/** What the client makes of the agent's hello: usable, or an incompatible version with both sides named. */
export function checkHello(hello: AgentHello, clientVersion: string): { ok: true } | { ok: false; message: string } {
  if (hello.protocol === AGENT_PROTOCOL_VERSION) return { ok: true };
  return {
    ok: false,
    message:
      `the agent on ${hello.host} is distributor-inspector ${hello.version} (agent protocol ${hello.protocol}), ` +
      `this client is ${clientVersion} (protocol ${AGENT_PROTOCOL_VERSION}): ` +
      `install the same version there: npm install -g distributor-inspector@${clientVersion}`,
  };
}
