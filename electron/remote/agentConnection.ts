// remote/: may be imported by cli/. The client side of issue 15: starts the system ssh with the agent
// as its remote command, waits for the agent's hello (skipping and reporting a login banner or shell
// rc output before it), then carries API calls and job events as JSON lines. Every way it can end is a
// RemoteFailure naming what happened and what to do (sshFailures.ts). Must never crash on what the
// other side prints, never keep an unbounded line in memory (nor unbounded events for jobs it did not
// start: earlyEvents.ts), never pass on a reply its method's schema refuses, and never add a host key
// option to ssh.

import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import {
  agentMessageSchema,
  checkHello,
  decodeLine,
  encodeMessage,
  helloSchema,
  LineFramer,
  MAX_MESSAGE_CHARS,
  MAX_PRELUDE_LINE_CHARS,
  MAX_PRELUDE_LINES,
  replyHeaderSchema,
  type AgentHello,
  type AgentMessage,
} from '../../shared/agentProtocol';
import {
  apiError,
  apiErrorSchema,
  checkOutgoing,
  events,
  methods,
  type ApiResult,
  type JobMethod,
  type JobResultOf,
  type JobItemOf,
  type MethodName,
  type RequestOf,
  type ResponseOf,
} from '../../shared/api';
import type { ApplyStep } from '../../shared/plan';
import { sshDestination } from '../../shared/sshUrl';
import { ChangeRate, type DestinationChanges } from '../../shared/hostWatch';
import { EarlyEvents } from './earlyEvents';
import { probeHostKey, STDERR_KEPT_CHARS } from './hostKeyProbe';
import { jobEventMeaning } from './jobEvents';
import { connectFailure, connectTimeout, isHostKeyRefusal, lostFailure, RemoteFailure, type SshEnding } from './sshFailures';
import { realHandshakeClock, stopSsh, DEFAULT_CONNECT_TIMEOUT_MS, type ConnectOptions } from './connectOptions';
import { agentRemoteCommand, sshInvocation } from './sshInvocation';

export type { ConnectOptions, HandshakeClock } from './connectOptions';

export interface JobHandlers<M extends JobMethod> {
  onItem?: (item: JobItemOf<M>) => void;
  onProgress?: (progress: { done: number; total: number; bytes: number; step?: ApplyStep }) => void;
  /** Aborting it asks the agent to cancel the job (cancelJob); the job then ends as the agent says (cancelled). */
  signal?: AbortSignal;
}

type JobEnding<M extends JobMethod> = ApiResult<JobResultOf<M>>;

interface JobListener {
  method: JobMethod;
  onEvent: (event: string, data: unknown) => void;
}

/** One ssh process, one agent, one session on the host. */
export class AgentConnection {
  private nextId = 1;
  private readonly calls = new Map<number, { method: string; resolve: (result: ApiResult<unknown>) => void }>();
  private readonly jobs = new Map<string, JobListener>();
  /** Events of a job whose `{job}` reply has not been read yet: bounded, a flood drops the host. */
  private readonly early = new EarlyEvents();
  /** The agent's own watch (watchDestinations): its change events, bounded by rate; a flood drops the host. */
  private readonly changeRate = new ChangeRate();
  private readonly changeListeners = new Set<(changes: DestinationChanges) => void>();
  private failure: RemoteFailure | undefined;
  private closing = false;
  readonly ended: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly stop: () => void,
    readonly hello: AgentHello,
    readonly host: string,
    ended: Promise<SshEnding>,
    private readonly notice: (line: string) => void,
  ) {
    this.ended = ended.then((ending) => {
      if (!this.closing || this.calls.size > 0 || this.jobs.size > 0) {
        const waiting = [...[...this.calls.values()].map((call) => call.method), ...[...this.jobs.values()].map((job) => job.method)];
        this.fail(lostFailure(ending, [...new Set(waiting)]));
      }
    });
  }

  /** Starts ssh and waits for a usable hello; rejects with a RemoteFailure. */
  static async connect(options: ConnectOptions): Promise<AgentConnection> {
    const host = sshDestination(options.target);
    const agentCommand = options.agent?.trim() || 'distributor-inspector';
    const sshOptions = options.sshOptions ?? [];
    const invocation = sshInvocation(options.target, agentRemoteCommand(options.agent), options.env, sshOptions);
    const notice = options.onNotice ?? (() => {});
    const child = spawn(invocation.file, invocation.args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: options.env as NodeJS.ProcessEnv,
      detached: invocation.ownGroup,
    });
    const stop = () => stopSsh(child, invocation.ownGroup);
    let stderr = '';
    let connected: AgentConnection | undefined = undefined;
    const stderrDecoder = new StringDecoder('utf8');
    const stderrLines = new LineFramer(4096);
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = stderrDecoder.write(chunk);
      stderr = (stderr + text).slice(-STDERR_KEPT_CHARS);
      // Once connected, the agent's own log lines (and ssh's) are worth showing as they come.
      for (const frame of stderrLines.push(text))
        if (connected && frame.kind === 'line' && frame.text.trim()) notice(`${host}: ${frame.text}`);
    });
    child.stdin!.on('error', () => {
      // The other side went away; the exit handler says so.
    });
    const asked = {
      host,
      ...(options.target.port !== undefined ? { port: options.target.port } : {}),
      agentCommand,
      ...(sshOptions.length > 0 ? { sshOptions } : {}),
    };
    const ended = new Promise<SshEnding>((resolve) => {
      child.once('error', (cause: NodeJS.ErrnoException) => {
        stderr += `\n${invocation.file}: ${cause.code === 'ENOENT' ? 'command not found' : cause.message}`;
      });
      child.once('close', (exitCode, signal) =>
        resolve({
          ...asked,
          ...(options.agentHint !== undefined ? { agentHint: options.agentHint } : {}),
          exitCode: exitCode ?? (signal ? null : 255),
          signal,
          stderr,
          clientVersion: options.clientVersion,
        }),
      );
    });

    const framer = new LineFramer(MAX_PRELUDE_LINE_CHARS);
    const decoder = new StringDecoder('utf8');
    let onMessage: ((message: AgentMessage, chars: number) => void) | undefined;
    let onFatal: ((failure: RemoteFailure) => void) | undefined = undefined;
    let onBadReply: ((id: number, result: unknown) => void) | undefined = undefined;
    let skipped = 0;
    let abortConnect: ((reason: unknown) => void) | undefined;
    let sshEnded = false;
    const handshake = new Promise<AgentHello>((resolve, reject) => {
      const refuse = (failure: unknown) => {
        reject(failure);
        stop();
      };
      abortConnect = refuse;
      const onFrames = (text: string) => {
        for (const frame of framer.push(text)) {
          if (connected === undefined && onMessage === undefined) {
            // Before the hello: a login banner, a shell rc file's output. Reported, skipped, bounded.
            const hello = frame.kind === 'line' ? decodeLine(frame.text, helloSchema) : undefined;
            if (hello?.ok) {
              const check = checkHello(hello.value, options.clientVersion);
              if (!check.ok) return refuse(new RemoteFailure('agent_incompatible', check.message));
              framer.maxLineChars = options.maxLineChars ?? MAX_MESSAGE_CHARS;
              onMessage = () => {};
              resolve(hello.value);
              continue;
            }
            if (frame.kind === 'line' && frame.text.trim() === '') continue;
            skipped++;
            const excerpt =
              frame.kind === 'line' ? (hello && !hello.ok ? hello.excerpt : '') : `${frame.excerpt} (${frame.lengthChars} characters)`;
            notice(`${host}: skipped a line before the agent's handshake (a login banner or shell rc output?): ${excerpt}`);
            if (skipped > (options.maxPreludeLines ?? MAX_PRELUDE_LINES))
              return refuse(
                new RemoteFailure(
                  'protocol',
                  `${host} printed more than ${options.maxPreludeLines ?? MAX_PRELUDE_LINES} lines before the agent's handshake: ` +
                    'a shell rc file prints in non-interactive sessions; make it print only when interactive (e.g. [ -t 1 ] or case $- in *i*)',
                ),
              );
            continue;
          }
          if (frame.kind === 'overlong') {
            onFatal?.(
              new RemoteFailure(
                'protocol',
                `the agent on ${host} sent a line of ${frame.lengthChars} characters, more than the ${framer.maxLineChars} this client accepts: the answer was dropped`,
              ),
            );
            continue;
          }
          if (frame.text.trim() === '') continue;
          const decoded = decodeLine(frame.text, agentMessageSchema);
          if (decoded.ok) {
            onMessage?.(decoded.value, frame.text.length);
            continue;
          }
          const reply = decodeLine(frame.text, replyHeaderSchema);
          if (reply.ok && onBadReply) onBadReply(reply.value.id, reply.value.result);
          else notice(`${host}: skipped a line from the agent: ${decoded.reason}: ${decoded.excerpt}`);
        }
      };
      child.stdout!.on('data', (chunk: Buffer) => onFrames(decoder.write(chunk)));
      void ended.then(async (ending) => {
        if (onMessage !== undefined) return;
        sshEnded = true; // its own failure, not the deadline, is why
        // ssh refused the host key without saying which key: ask it once more, verbosely, for the fingerprint.
        let probed = '';
        if (isHostKeyRefusal(ending.stderr) && !/fingerprint for the/.test(ending.stderr))
          probed = await probeHostKey(options.target, options.env, sshOptions);
        reject(connectFailure(ending, probed));
      });
    });

    // A host that never says hello (a hung network, a stuck remote shell) is stopped when its caller gives
    // up on it, or at the deadline: one for the whole handshake, so a trickle of banner lines cannot hold it open.
    const onAbort = () => abortConnect?.(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    const clock = options.clock ?? realHandshakeClock;
    const waitMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const deadline = clock.setTimeout(
      () => sshEnded || abortConnect?.(connectTimeout(asked, waitMs, skipped, stderr, options.connectTimeoutHint)),
      waitMs,
    );
    const hello = await handshake.finally(() => {
      clock.clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onAbort);
    });
    const connection = new AgentConnection(child, stop, hello, host, ended, notice);
    connected = connection;
    onMessage = (message, chars) => connection.receive(message, chars);
    onFatal = (failure) => connection.drop(failure);
    onBadReply = (id, result) => connection.badReply(id, result);
    return connection;
  }

  private receive(message: AgentMessage, chars: number): void {
    // Dropped: what is still in the pipe until ssh ends is not read into memory.
    if (this.failure) return;
    if (message.type === 'reply') {
      const call = this.calls.get(message.id);
      if (!call) return this.notice(`${this.host}: a reply to no call (id ${message.id}) was ignored`);
      this.calls.delete(message.id);
      call.resolve(message.result as ApiResult<unknown>);
    } else if (message.type === 'event') {
      if (message.event === 'destinationChanges') return this.destinationChanges(message.data);
      const job = (message.data as { job?: unknown } | null)?.job;
      if (typeof job !== 'string') return;
      const listener = this.jobs.get(job);
      if (listener) return listener.onEvent(message.event, message.data);
      const flood = this.early.keep(job, { event: message.event, data: message.data }, chars);
      if (flood)
        this.drop(
          new RemoteFailure(
            'agent_flood',
            `the agent on ${this.host} sent ${flood}, so the connection was dropped: that agent is broken or not the distributor-inspector agent. ` +
              'Check what runs there as the agent (its --version) before connecting again.',
          ),
        );
    } else if (message.type === 'protocolError') {
      this.notice(`${this.host}: the agent said: ${message.message}`);
    }
  }

  /** A change event of the agent's watch: checked, counted (too many: agent_flood), passed on; nothing is kept here. */
  private destinationChanges(data: unknown): void {
    const flood = this.changeRate.note(Date.now());
    if (flood)
      return this.drop(
        new RemoteFailure(
          'agent_flood',
          `the agent on ${this.host} sent ${flood}, so the connection was dropped: that agent is broken or not the distributor-inspector agent.`,
        ),
      );
    const checked = checkOutgoing(events.destinationChanges, data, `${this.host}: the agent's destinationChanges`);
    if (!checked.ok) return this.notice(checked.error.message);
    for (const listener of this.changeListeners) listener(checked.value);
  }

  /** Hears the agent's change events (after `watchDestinations`); returns the unsubscribe. */
  onDestinationChanges(listener: (changes: DestinationChanges) => void): () => void {
    this.changeListeners.add(listener);
    return () => void this.changeListeners.delete(listener);
  }

  /** A reply whose call can be told, but whose result breaks the protocol's: that call fails as agent_protocol, naming the field. */
  private badReply(id: number, result: unknown): void {
    const call = this.calls.get(id);
    if (this.failure || !call) return this.notice(`${this.host}: a malformed reply to no call (id ${id}) was ignored`);
    this.calls.delete(id);
    const what = `${this.host}: the agent's reply to ${call.method}`;
    const error = (result as { ok?: unknown; error?: unknown } | null)?.ok === false ? (result as { error?: unknown }).error : undefined;
    const checked = checkOutgoing(apiErrorSchema, error, `${what} (an error)`, 'agent_protocol');
    call.resolve(
      error !== undefined && !checked.ok
        ? checked
        : {
            ok: false,
            error: apiError('agent_protocol', `${what} is malformed: its result is neither {ok: true, value} nor {ok: false, error}`),
          },
    );
  }

  private fail(failure: RemoteFailure): void {
    this.failure ??= failure;
    this.early.clear();
    for (const [id, call] of this.calls) {
      this.calls.delete(id);
      call.resolve({ ok: false, error: { code: 'internal', message: failure.message, details: { remote: failure.code } } });
    }
    for (const [job, listener] of this.jobs) {
      this.jobs.delete(job);
      listener.onEvent('lost', undefined);
    }
  }

  /** Ends the connection for what the agent did (a flood, an overlong line): every waiting call and job fails with it. */
  private drop(failure: RemoteFailure): void {
    this.fail(failure);
    this.stop();
  }

  /** The failure that ended the connection, if one did. */
  get lost(): RemoteFailure | undefined {
    return this.failure;
  }

  /** One API call; a lost connection rejects with its RemoteFailure. */
  async call<M extends MethodName>(method: M, request: RequestOf<M>): Promise<ApiResult<ResponseOf<M>>> {
    if (this.failure) throw this.failure;
    const id = this.nextId++;
    const answer = new Promise<ApiResult<unknown>>((resolve) => this.calls.set(id, { method, resolve }));
    this.child.stdin!.write(encodeMessage({ type: 'call', id, method, request }));
    const result = await answer;
    if (this.failure && !result.ok && (result.error.details as { remote?: string } | undefined)?.remote) throw this.failure;
    if (!result.ok) return result;
    // Checked as the method's response, as events and items are: a bad reply fails this call, naming the field.
    return checkOutgoing<ResponseOf<M>>(
      methods[method].response as never,
      result.value,
      `${this.host}: the agent's reply to ${method}`,
      'agent_protocol',
    );
  }

  /** Starts a job and resolves with its ending: the result, or the error event's ApiError. */
  async job<M extends JobMethod>(method: M, request: RequestOf<M>, handlers: JobHandlers<M> = {}): Promise<JobEnding<M>> {
    const started = await this.call(method, request);
    if (!started.ok) return started;
    const { job } = started.value as { job: string };
    const cancel = () => void this.call('cancelJob', { job }).catch(() => {});
    if (handlers.signal?.aborted) cancel();
    else handlers.signal?.addEventListener('abort', cancel, { once: true });
    const ending = new Promise<JobEnding<M>>((resolve, reject) => {
      const onEvent = (event: string, data: unknown) => {
        if (event === 'lost') return reject(this.failure);
        const meaning = jobEventMeaning(this.host, method, event, data);
        if (meaning.kind === 'progress') handlers.onProgress?.(meaning.value as never);
        else if (meaning.kind === 'items') {
          meaning.notices.forEach((message) => this.notice(message));
          if (handlers.onItem) for (const value of meaning.values) handlers.onItem(value as JobItemOf<M>);
        } else if (meaning.kind === 'notice') this.notice(meaning.message);
        else if (meaning.kind === 'end') {
          this.jobs.delete(job);
          resolve(meaning.ending as JobEnding<M>);
        }
      };
      this.jobs.set(job, { method, onEvent });
      for (const early of this.early.take(job)) onEvent(early.event, early.data);
    });
    return ending.finally(() => handlers.signal?.removeEventListener('abort', cancel));
  }

  /** Ends the agent's input (it closes its session and exits) and waits for ssh to end. */
  async close(): Promise<void> {
    this.closing = true;
    this.child.stdin!.end();
    const timer = setTimeout(this.stop, 10_000);
    await this.ended;
    clearTimeout(timer);
  }
}
