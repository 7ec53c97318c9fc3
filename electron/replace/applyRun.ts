// One apply in progress: the plan, its result as filled in so far, its progress, and the only way it
// changes the disk. Every mutation acts on one name inside a folder held open (pinnedDir.ts: opened
// step by step with O_NOFOLLOW from the destination, on its device), so a folder swapped for a link
// mid-way cannot redirect it, and every one is counted in the result. Knows no plan kind: what a kind
// does with these steps is in kinds/ (applyPlan.ts picks the kind).

import path from 'node:path';
import type { ApplyPhase, ApplyProgress, ApplyResult, PlanDelete, PlanKind, ReplacePlan } from '../../shared/plan';
import type { VerifiedOutputs } from './publish';
import { STAGING_FILES_DIR } from '../../shared/staging';
import { ApplyFailure, reachFailure } from './applyErrors';
import { parentOf } from './planPaths';
import { initialResult } from './applyResult';
import { BackupRefused, countedFsOps, type BackupStep, type PreparedBackup } from './backupStep';
import { joinRelative, lstatEntry, stateFileSha256 } from './fingerprint';
import { nodeFsOps, type FileBytes, type FsOps, type WriteOptions } from './fsOps';
import type { State } from '../../shared/stateSchema';
import { PinCache } from './pinCache';
import type { HashPool } from '../engine/hashPool';
import { childPath, pinDirectory, pinRelative, type PinnedDir } from './pinnedDir';

interface Reached {
  full: string;
  release: () => Promise<void>;
  humanize: (cause: unknown) => unknown;
}

/** One plan kind as the apply drives it (kinds/: one module each; docs/plan-kinds.md). */
export interface ApplyKind {
  readonly kind: PlanKind;
  /**
   * Checks the plan against itself and the disk, before anything changes (throws ApplyFailure), and
   * pins the destination. Runs after the destination was found exactly as planned. Gives the state
   * the writes publish (a repair's: the one on disk), or none for a kind that writes nothing.
   */
  check(run: ApplyRun): Promise<State | undefined>;
  /** Every step from the first mutation to done (staging, backup, swap, cleanup), with the state check gave; throws on failure. */
  execute(run: ApplyRun, state: State | undefined): Promise<void>;
  /** Whether a backup keeps this delete as one unit (moved whole by rename, or copied whole). */
  keptInBackup(entry: PlanDelete): boolean;
  /** The names in the destination that, still there after the apply, were left behind by it. */
  leftovers(plan: ReplacePlan): string[];
}

/** What applyPlan (applyPlan.ts, the driver) takes besides the plan; the run keeps it. */
export interface ApplyPlanOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ApplyProgress) => void;
  fs?: FsOps;
  now?: () => Date;
  /** The operator acknowledged the nested managed destinations a forced plan deletes (--include-nested). */
  includeNested?: boolean;
  /** The operator accepted a repair that leaves its refused outputs as they are (--accept-partial). */
  acceptPartial?: boolean;
  /** Keeps what the apply removes (backup/backupWriter.ts); without it, removed entries are deleted. */
  backup?: BackupStep;
  /**
   * The plan's own verified outputs, when the apply follows the plan at once (`replace --yes`):
   * each is hashed and staged if it is exactly the write's bytes (sha256 and size), so the source
   * is not read a second time; any other is read from the source as always.
   */
  verified?: VerifiedOutputs;
  /** The worker pool that hashes the old outputs a plan applied at once left to the apply (`hashAtApply`); without it, one is made. */
  pool?: HashPool;
  /** From this size on a streamed output is copied by the kernel (stageOutputs.ts KERNEL_COPY_MIN_BYTES, the default). */
  kernelCopyMinBytes?: number;
}

export class ApplyRun {
  readonly inner: FsOps;
  readonly result: ApplyResult;
  destReal: string;
  readonly staging: string;
  // The destination, held open from the check on: every mutation is reached from it, one folder at a time.
  destPin: PinnedDir | undefined;
  // Folders opened once and held: the staging folder's as they are (apply's own, 0700), the destination's checked still in place before each use.
  readonly pins: PinCache;
  createdDestination = false;
  stagingCreated = false;
  // The backup of what the apply removes: entered just before the point of no return.
  backupEntered = false;
  backupTaken: PreparedBackup | undefined;
  readonly backupFs: FsOps;
  // Set when the old state is about to go: from then on a failure leaves things for a forced replace.
  pastNoReturn = false;
  phase: ApplyPhase = 'check';
  done = 0;
  bytes = 0;
  readonly total: number;
  // The phase's own count, beside the apply's overall done/total: "staging 3,400 / 10,000".
  stepDone = 0;
  stepTotal = 0;

  constructor(
    readonly plan: ReplacePlan,
    readonly kind: ApplyKind,
    readonly options: ApplyPlanOptions,
  ) {
    this.inner = options.fs ?? nodeFsOps;
    this.result = initialResult(plan.mode, plan.destinationPath);
    this.destReal = plan.destinationRealPath;
    this.staging = plan.stagingName;
    this.pins = new PinCache(this.staging);
    this.backupFs = countedFsOps(this.inner, () => void this.result.mutations++);
    this.total = plan.writes.length * 2 + plan.deletes.length + 1;
  }

  inStaging(relative: string): string {
    return `${this.staging}/${relative}`;
  }

  stagedFile(outputPath: string): string {
    return `${this.staging}/${STAGING_FILES_DIR}/${outputPath}`;
  }

  progress(at?: string): void {
    const { phase, stepDone, stepTotal, done, total, bytes } = this;
    this.options.onProgress?.({
      phase,
      step: { phase, done: stepDone, total: stepTotal },
      done,
      total,
      bytes,
      ...(at !== undefined ? { path: at } : {}),
    });
  }

  enter(next: ApplyPhase, count: number): void {
    this.phase = next;
    this.stepDone = 0;
    this.stepTotal = count;
  }

  /** One item of the current step done, its progress reported. */
  stepped(at?: string): void {
    this.done++;
    this.stepDone++;
    this.progress(at);
  }

  now(): Date {
    return (this.options.now ?? (() => new Date()))();
  }

  throwIfCancelled(): void {
    if (this.options.signal?.aborted)
      throw new ApplyFailure('cancelled', 'cancelled before the destination was changed; the staging folder is removed');
  }

  /** The path of `relative` reached through its pinned parent folder; messages name the real path, never /proc/self/fd. */
  private async reach(relative: string): Promise<Reached> {
    if (!this.destPin) throw new ApplyFailure('invalid_plan', 'the destination is not open');
    const folder = parentOf(relative);
    let pin: PinnedDir;
    let release: () => Promise<void>;
    try {
      ({ pin, release } = await this.pins.pin(this.destPin, folder));
    } catch (cause) {
      throw reachFailure(cause, relative);
    }
    const realFolder = joinRelative(this.destReal, folder);
    return {
      full: childPath(pin, path.posix.basename(relative)),
      release,
      humanize: (cause) => {
        if (pin.anchored && cause instanceof Error) cause.message = cause.message.split(pin.path).join(realFolder);
        return reachFailure(cause, relative);
      },
    };
  }

  private async mutate(relative: string, action: (full: string) => Promise<void>): Promise<void> {
    const target = await this.reach(relative);
    try {
      this.result.mutations++;
      this.result.changed = true;
      // From the state's unlink on, every mutation acts on what was there before.
      if (this.phase === 'remove_state' || this.phase === 'delete') this.result.oldTouched = true;
      await action(target.full);
    } catch (cause) {
      throw target.humanize(cause);
    } finally {
      await target.release();
    }
  }

  readonly ops = {
    mkdir: (relative: string, mode?: number) => this.mutate(relative, (full) => this.inner.mkdir(full, mode)),
    writeFile: (relative: string, data: FileBytes, writeOptions?: WriteOptions) =>
      this.mutate(relative, (full) => this.inner.writeFile(full, data, writeOptions)),
    /** One mutation: the files (written with `durable: false`) flushed together. */
    syncFiles: async (relatives: readonly string[]) => {
      const targets: Reached[] = [];
      try {
        for (const relative of relatives) targets.push(await this.reach(relative));
        this.result.mutations++;
        await this.inner.syncFiles(targets.map((target) => target.full));
      } catch (cause) {
        // The message names one file by its /proc/self/fd path: each target puts back its real folder.
        for (const target of targets) target.humanize(cause);
        throw reachFailure(cause, relatives[0] ?? '.');
      } finally {
        await Promise.all(targets.map((target) => target.release()));
      }
    },
    rename: async (from: string, to: string) => {
      const target = await this.reach(to);
      try {
        // Looked for in the very folder the rename acts in (the pinned one), not by a path from the top.
        if ((await lstatEntry(target.full, '')).type !== 'missing')
          throw new ApplyFailure('target_exists', `"${to}" appeared in the destination during the replace; it is not overwritten`, {
            path: to,
          });
        await this.mutate(from, (full) => this.inner.rename(full, target.full));
      } catch (cause) {
        throw target.humanize(cause);
      } finally {
        await target.release();
      }
    },
    unlink: (relative: string) => this.mutate(relative, (full) => this.inner.unlink(full)),
    rmdir: (relative: string) => this.mutate(relative, (full) => this.inner.rmdir(full)),
    removeTree: (relative: string) => this.mutate(relative, (full) => this.inner.removeTree(full)),
    /** Into the backup, outside the destination: a folder the backup made itself, private to this user. */
    moveOut: (relative: string, target: string) => this.mutate(relative, (full) => this.inner.rename(full, target)),
    /** Back from the backup to where it stood (wholeFolders.ts): never over anything that stands there now. */
    moveBack: (source: string, relative: string) =>
      this.mutate(relative, async (full) => {
        if ((await lstatEntry(full, '')).type !== 'missing')
          throw new ApplyFailure('target_exists', `"${relative}" appeared in the destination while it was moved back from ${source}`, {
            path: relative,
          });
        await this.inner.rename(source, full);
      }),
    fsyncDir: async (folder: string) => {
      if (!this.destPin) throw new ApplyFailure('invalid_plan', 'the destination is not open');
      let pin: PinnedDir;
      try {
        pin = await pinRelative(this.destPin, folder);
      } catch (cause) {
        throw reachFailure(cause, folder || '.');
      }
      try {
        this.result.mutations++;
        await this.inner.fsyncDir(pin.path);
      } finally {
        await pin.close();
      }
    },
  };

  /** Removes one planned delete: moved into the backup when the kind keeps it whole there, else removed as itself. */
  async deleteEntry(entry: PlanDelete, record = true): Promise<void> {
    if (this.backupTaken?.moves && this.kind.keptInBackup(entry)) await this.ops.moveOut(entry.path, this.backupTaken.targetOf(entry.path));
    else if (entry.type === 'directory') await this.ops.rmdir(entry.path);
    else await this.ops.unlink(entry.path); // files, links (the link itself) and special files alike
    if (record) this.result.deleted.push(entry.path);
    this.stepped(entry.path);
  }

  /** Keeps what will be removed, before anything is: a failure here stops the apply with nothing deleted. */
  async prepareBackup(step: BackupStep): Promise<PreparedBackup> {
    const seen = new Map(this.plan.fingerprint.entries.map((entry) => [entry.path, entry]));
    const units = this.plan.deletes.filter((entry) => this.kind.keptInBackup(entry)).flatMap((entry) => seen.get(entry.path) ?? []);
    this.enter('backup', units.length);
    this.progress();
    this.backupEntered = true;
    try {
      return await step.prepare({ plan: this.plan, destRealPath: this.destReal, units, fs: this.backupFs });
    } catch (cause) {
      if (cause instanceof BackupRefused) throw new ApplyFailure(cause.code, cause.message);
      const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
      throw new ApplyFailure(
        'backup_failed',
        `could not keep a backup of what it removes (${(cause as Error)?.message ?? String(cause)}); it stopped before anything was deleted`,
        { phase: 'backup', ...(errno ? { errno } : {}) },
      );
    }
  }

  /** The backup step, when the apply keeps one: what the kind removes, kept outside the destination. */
  async takeBackup(): Promise<void> {
    if (this.options.backup) this.backupTaken = await this.prepareBackup(this.options.backup);
  }

  /** Opens the destination and proves it is the folder the plan fingerprinted (same device and inode). */
  async pinDestination(): Promise<void> {
    const plan = this.plan;
    const pin = await pinDirectory(this.destReal, { label: plan.destinationPath }).catch((cause) => {
      throw reachFailure(cause, '.');
    });
    const planned = plan.fingerprint.entries.find((entry) => entry.path === '');
    if (plan.destinationExists && planned && (planned.ino !== pin.ino.toString() || planned.dev !== pin.dev.toString())) {
      await pin.close();
      throw new ApplyFailure('stale_plan', `${plan.destinationPath} was replaced by another folder since the plan was made`);
    }
    this.destPin = pin;
  }

  /** The destination folder itself, made by this apply (a publish to a missing folder). */
  async createDestination(): Promise<void> {
    this.result.mutations++;
    this.result.changed = true;
    await this.inner.mkdir(this.destReal);
    this.createdDestination = true;
    await this.pinDestination();
  }

  /**
   * After a failure: the error as data, and, before the old state is removed, apply's own folders
   * taken back out, so the destination is exactly as it was (and a destination apply created is gone
   * again). A failed unlink of the state counts as before, when the state is provably still there.
   */
  async fail(cause: unknown): Promise<void> {
    const { result, phase } = this;
    const failure = cause instanceof ApplyFailure ? cause : undefined;
    const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
    const where = `while ${phase === 'check' ? 'checking' : `in the ${phase} step`}`;
    result.error = failure
      ? { code: failure.code, message: failure.message, ...(failure.details ? { details: failure.details } : {}) }
      : {
          code: 'io_error',
          message: `${errno ?? 'error'} ${where}: ${(cause as Error)?.message ?? String(cause)}`,
          details: { phase, ...(errno ? { errno } : {}) },
        };
    const stateUntouched =
      phase === 'remove_state' &&
      result.deleted.length === 0 &&
      (await stateFileSha256(this.destReal).catch(() => undefined)) === this.plan.fingerprint.stateSha256;
    if (stateUntouched) result.oldTouched = false;
    if (this.pastNoReturn && !stateUntouched) return;
    try {
      if (this.stagingCreated) {
        await this.pins.closeAll();
        await this.ops.removeTree(this.staging);
        this.stagingCreated = false;
      }
      if (this.backupEntered) await this.options.backup?.discard(this.backupFs);
      if (this.createdDestination) {
        await this.destPin?.close();
        this.destPin = undefined;
        result.mutations++;
        await this.inner.rmdir(this.destReal);
        this.createdDestination = false;
      }
      result.changed = false;
    } catch {
      // Left for inspect to report as an interrupted replace (the marker says so); a forced replace clears it.
    }
  }

  /** Whatever happened: folders closed, what the kind leaves behind if it did not finish, the time taken. */
  async finish(startedMs: number): Promise<void> {
    await this.pins.closeAll();
    await this.destPin?.close();
    let left = false;
    for (const name of this.kind.leftovers(this.plan).filter((name) => name !== ''))
      left ||= (await lstatEntry(this.destReal, name).catch(() => ({ type: 'missing' }))).type !== 'missing';
    this.result.stagingLeft = left;
    this.result.durationMs = Math.round(performance.now() - startedMs);
  }
}
