// The verify stat cache on disk (shared/verifyFreshnessCache.ts has the format and the rules): one
// JSON file in the user's state folder (`$XDG_STATE_HOME/distributor-inspector/verify-stat-cache.json`),
// never in a destination. Read once, kept in memory, written back after a verify (a temp file renamed
// over it). A file that does not parse or validate (one of an older format too), or that another
// machine or an earlier boot wrote (device and inode numbers are only comparable within one boot of
// one machine), is dropped, never trusted: the next verify hashes everything and writes a new one.
// Never reads a destination.

import { randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  boundedDestinations,
  STAT_CACHE_FORMAT,
  statCacheFileSchema,
  type CachedDestination,
  type CachedOutput,
  type CachedState,
  type StatCacheFile,
} from '../../shared/verifyFreshnessCache';
import { unchangedExpectation } from '../../shared/verifyFreshnessCheck';
import { userAppFolder } from './userFolders';

export const STAT_CACHE_FILE_NAME = 'verify-stat-cache.json';

export function userStatCacheFile(
  env: Record<string, string | undefined> = process.env,
  home: string = os.homedir(),
  platform: NodeJS.Platform = process.platform,
): string {
  return path.join(userAppFolder('state', env, home, platform), STAT_CACHE_FILE_NAME);
}

function firstReadable(files: string[]): string | undefined {
  for (const file of files) {
    try {
      const text = readFileSync(file, 'utf8').trim();
      if (text) return text;
    } catch {
      // The next one.
    }
  }
  return undefined;
}

/** This machine and this boot of it. Linux: machine-id and boot_id; elsewhere the host name and the boot time to the minute. */
export function machineIdentity(): { machine: string; boot: string } {
  const machine = firstReadable(['/etc/machine-id', '/var/lib/dbus/machine-id']) ?? `host:${os.hostname()}`;
  const boot = firstReadable(['/proc/sys/kernel/random/boot_id']) ?? `booted:${Math.round((Date.now() / 1000 - os.uptime()) / 60)}`;
  return { machine, boot };
}

/** Why a cache file was not used (said by tests and the docs; the verify simply hashes everything). */
export type StatCacheDiscard = 'corrupt' | 'other_machine' | 'other_boot';

export interface StatCacheLoad {
  cache: StatCache;
  discarded?: StatCacheDiscard;
}

/** A destination's expectation for a re-verify, with the entries it was made from (never edited: replaced on change). */
export interface Vouched {
  /** The destination's key in the cache (its absolute path). */
  key: string;
  state: CachedState;
  known: Record<string, CachedOutput>;
  expectation: string;
}

export class StatCache {
  private dirty = false;
  /** Each destination's re-verify expectation, made once per change of its entry (null: none possible). */
  private readonly expectations = new Map<string, Vouched | null>();

  private constructor(
    readonly file: string,
    private readonly identity: { machine: string; boot: string },
    private destinations: Record<string, CachedDestination>,
  ) {}

  /** The cache in `file`, or an empty one (a missing, corrupt, foreign or older-format file). */
  static async load(file: string, identity = machineIdentity()): Promise<StatCacheLoad> {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch {
      return { cache: new StatCache(file, identity, {}) };
    }
    let parsed: StatCacheFile;
    try {
      const checked = statCacheFileSchema.safeParse(JSON.parse(text));
      if (!checked.success) return { cache: new StatCache(file, identity, {}), discarded: 'corrupt' };
      parsed = checked.data;
    } catch {
      return { cache: new StatCache(file, identity, {}), discarded: 'corrupt' };
    }
    if (parsed.machine !== identity.machine) return { cache: new StatCache(file, identity, {}), discarded: 'other_machine' };
    if (parsed.boot !== identity.boot) return { cache: new StatCache(file, identity, {}), discarded: 'other_boot' };
    return { cache: new StatCache(file, identity, parsed.destinations) };
  }

  private held(root: string): CachedDestination | undefined {
    const key = path.resolve(root);
    return Object.hasOwn(this.destinations, key) ? this.destinations[key] : undefined;
  }

  /** What was hashed in the destination at `root` (absolute), by output path. */
  known(root: string): Record<string, CachedOutput> | undefined {
    return this.held(root)?.outputs;
  }

  /** The destination's state file as a verify last read it, when it was managed. */
  state(root: string): CachedState | undefined {
    return this.held(root)?.state;
  }

  /**
   * What a re-verify can check `root` against by stats alone (reverify.ts): the expectation
   * (shared/verifyFreshnessCheck.ts) and the entries it was made from, or undefined when the cache
   * cannot vouch for all of it. Made once per change of the destination's entry.
   */
  vouched(root: string): Vouched | undefined {
    const key = path.resolve(root);
    const memo = this.expectations.get(key);
    if (memo !== undefined) return memo ?? undefined;
    const held = this.held(key);
    const expectation = unchangedExpectation(held?.state, held?.outputs);
    const made = expectation === undefined ? null : { key, state: held!.state!, known: held!.outputs, expectation };
    this.expectations.set(key, made);
    return made ?? undefined;
  }

  /** Notes a destination found unchanged as just used (its `vouched().key`), for eviction; not worth a write. */
  touch(key: string, at: number = Date.now()): void {
    if (Object.hasOwn(this.destinations, key)) this.destinations[key]!.usedAt = at;
  }

  /** Replaces what is known of one destination with what its verify just saw. */
  record(root: string, outputs: Record<string, CachedOutput>, at: number = Date.now(), state?: CachedState): void {
    const key = path.resolve(root);
    this.destinations[key] = state ? { usedAt: at, outputs, state } : { usedAt: at, outputs };
    this.expectations.delete(key);
    this.dirty = true;
  }

  /**
   * Applies what a verify changed (entries hashed anew, outputs no longer files; the state file's entry
   * when it was read: null for none to keep) and notes the destination as just used.
   */
  update(
    root: string,
    changed: Record<string, CachedOutput>,
    dropped: readonly string[],
    state?: CachedState | null,
    at: number = Date.now(),
  ): void {
    const key = path.resolve(root);
    const held = Object.hasOwn(this.destinations, key) ? this.destinations[key]! : undefined;
    if (held && Object.keys(changed).length === 0 && dropped.length === 0 && state === undefined) {
      // Only the time moved: kept for eviction, not worth a write of its own.
      held.usedAt = at;
      return;
    }
    const outputs = { ...held?.outputs, ...changed };
    for (const output of dropped) delete outputs[output];
    const keptState = state === undefined ? held?.state : (state ?? undefined);
    this.record(key, outputs, at, keptState);
  }

  /** Writes the cache back when it changed, within its bound; a failure to write loses only speed. */
  async save(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    this.destinations = boundedDestinations(this.destinations);
    this.expectations.clear();
    const body: StatCacheFile = { format: STAT_CACHE_FORMAT, ...this.identity, destinations: this.destinations };
    const temp = `${this.file}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      await fs.writeFile(temp, JSON.stringify(body), { mode: 0o600 });
      await fs.rename(temp, this.file);
    } catch {
      await fs.rm(temp, { force: true }).catch(() => undefined);
    }
  }
}
