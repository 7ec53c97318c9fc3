// Applies a replace plan, in the one order that keeps the contract's promise at every instant,
// also when the process is killed between two steps: a `.distributor.json` on disk always describes
// outputs whose bytes are on disk as it says (docs/replace.md explains each step).
// Never touches anything outside the destination: every path is a clean relative path, and the
// folder of each path is realpath-checked right before each mutation, so no symbolic link is followed.
// All mutations go through FsOps; failures come back as data, never as a throw.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isCleanRelativePath } from '../../shared/cleanPath';
import type { ManifestFile } from '../../shared/manifestSchema';
import { parseState } from '../../shared/parseDocument';
import { replacePlanSchema, type ApplyPhase, type ApplyProgress, type ApplyResult, type ReplacePlan } from '../../shared/plan';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { STATE_FILE_NAME, type State } from '../../shared/stateSchema';
import { checkFingerprint, joinRelative, lstatEntry, readStateFileBytes } from './fingerprint';
import { nodeFsOps, type FsOps } from './fsOps';
import { ancestorsOf } from './planReplace';
import { outputBytesFor, readVerifiedSourceFile, sha256Of, stateFileBytes } from './publish';
import { realPathOf } from './safeDestination';

export interface ApplyOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ApplyProgress) => void;
  fs?: FsOps;
  now?: () => Date;
}

/** A refusal or failure with a code; caught in applyPlan and returned as data. */
class ApplyFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const STATE_TEMP_NAME = `${STATE_FILE_NAME}.tmp`;
const isStagingPath = (relative: string) => relative === STAGING_DIR_NAME || relative.startsWith(`${STAGING_DIR_NAME}/`);
const parentOf = (relative: string) => (path.posix.dirname(relative) === '.' ? '' : path.posix.dirname(relative));

function checkPlanPaths(plan: ReplacePlan, newState: State): void {
  for (const entry of plan.deletes) {
    if (!isCleanRelativePath(entry.path))
      throw new ApplyFailure(
        'invalid_plan',
        `the plan deletes ${JSON.stringify(entry.path)}, which is not a clean path inside the destination`,
        { path: entry.path },
      );
  }
  for (const write of plan.writes) {
    if (!isCleanRelativePath(write.path) || write.path === STATE_FILE_NAME || isStagingPath(write.path)) {
      throw new ApplyFailure(
        'invalid_plan',
        `the plan writes ${JSON.stringify(write.path)}, which is not a clean, unreserved path inside the destination`,
        { path: write.path },
      );
    }
  }
  if ((plan.mode === 'force') !== plan.fingerprint.wholeTree && plan.destinationExists) {
    throw new ApplyFailure('invalid_plan', 'a forced plan must fingerprint the whole tree, a normal one only the paths it touches');
  }
  // Every delete must be an entry the fingerprint saw (and that apply just found unchanged), of that type.
  const seen = new Map(plan.fingerprint.entries.map((entry) => [entry.path, entry.type]));
  for (const entry of plan.deletes) {
    if (seen.get(entry.path) !== entry.type) {
      throw new ApplyFailure(
        'invalid_plan',
        `the plan deletes "${entry.path}" as a ${entry.type}, but its fingerprint did not see one there`,
        { path: entry.path },
      );
    }
  }
  const recorded = newState.outputs
    .map((o) => `${o.path}\0${o.sha256}\0${o.size}`)
    .sort()
    .join('\n');
  const planned = plan.writes
    .map((w) => `${w.path}\0${w.sha256}\0${w.size}`)
    .sort()
    .join('\n');
  if (recorded !== planned) throw new ApplyFailure('invalid_plan', "the plan's writes and its new state disagree");
  if (parseState(JSON.stringify(newState)).status !== 'managed')
    throw new ApplyFailure('invalid_plan', "the plan's new state is not a valid state");
}

/** Normal replace deletes only what the current state records (and folders on the way): checked again here. */
async function checkNormalDeletes(plan: ReplacePlan, destReal: string): Promise<void> {
  const stateBytes = await readStateFileBytes(destReal);
  const parsed = stateBytes instanceof Buffer ? parseState(stateBytes) : undefined;
  const outputs = parsed?.status === 'managed' ? parsed.state.outputs.map((output) => output.path) : [];
  const files = new Set(outputs);
  const folders = new Set(outputs.flatMap(ancestorsOf));
  for (const entry of plan.deletes) {
    const allowed =
      entry.path === STATE_FILE_NAME ? stateBytes !== null : entry.type === 'directory' ? folders.has(entry.path) : files.has(entry.path);
    if (!allowed)
      throw new ApplyFailure('invalid_plan', `a normal replace may delete only recorded outputs, but the plan deletes "${entry.path}"`, {
        path: entry.path,
      });
  }
}

export async function applyPlan(planInput: ReplacePlan, options: ApplyOptions = {}): Promise<ApplyResult> {
  const startedMs = performance.now();
  const parsedPlan = replacePlanSchema.safeParse(planInput);
  if (!parsedPlan.success) {
    const problems = parsedPlan.error.issues.map((issue) => `${issue.path.join('.') || '(plan)'}: ${issue.message}`).join('; ');
    return {
      ok: false,
      mode: (planInput as Partial<ReplacePlan> | undefined)?.mode === 'force' ? 'force' : 'replace',
      destinationPath: String((planInput as Partial<ReplacePlan> | undefined)?.destinationPath ?? ''),
      error: { code: 'invalid_plan', message: `the plan is not a valid plan: ${problems}` },
      changed: false,
      stateWritten: false,
      stagingLeft: false,
      deleted: [],
      written: [],
      mutations: 0,
      durationMs: Math.round(performance.now() - startedMs),
    };
  }
  const plan = parsedPlan.data;
  const inner = options.fs ?? nodeFsOps;
  const result: ApplyResult = {
    ok: false,
    mode: plan.mode,
    destinationPath: plan.destinationPath,
    changed: false,
    stateWritten: false,
    stagingLeft: false,
    deleted: [],
    written: [],
    mutations: 0,
    durationMs: 0,
  };
  let destReal = plan.destinationRealPath;
  // What apply put in the staging folder, to take back out on an early failure. Sets: 50,000 outputs.
  // Folders keep their creation order (parents first), so removing them in reverse works.
  const staged = { files: new Set<string>(), folders: new Set<string>() };
  // Set when the old state is about to go: from then on a failure leaves things for a forced replace.
  let pastNoReturn = false;
  let phase: ApplyPhase = 'check';
  let done = 0;
  let bytes = 0;
  const total = plan.writes.length * 2 + plan.deletes.length + 1;
  const progress = (at?: string) => options.onProgress?.({ phase, done, total, bytes, ...(at !== undefined ? { path: at } : {}) });

  // Every mutation: counted, and only after the folder it acts in is proven to be the real folder.
  const checkFolder = async (folder: string, forPath: string) => {
    const expected = joinRelative(destReal, folder);
    const real = await fs.realpath(expected);
    if (real !== expected)
      throw new ApplyFailure(
        'unsafe_path',
        `the folder of "${forPath}" resolves to ${real}, not to its place in the destination; nothing is done through a link`,
        { path: forPath },
      );
  };
  const mutate = async (relative: string, action: (full: string) => Promise<void>) => {
    await checkFolder(parentOf(relative), relative);
    result.mutations++;
    result.changed = true;
    await action(joinRelative(destReal, relative));
  };
  const ops = {
    mkdir: (relative: string) => mutate(relative, (full) => inner.mkdir(full)),
    writeFile: (relative: string, data: Uint8Array) => mutate(relative, (full) => inner.writeFile(full, data)),
    rename: async (from: string, to: string) => {
      await checkFolder(parentOf(to), to);
      if ((await lstatEntry(destReal, to)).type !== 'missing')
        throw new ApplyFailure('target_exists', `"${to}" appeared in the destination during the replace; it is not overwritten`, {
          path: to,
        });
      await mutate(from, (full) => inner.rename(full, joinRelative(destReal, to)));
    },
    unlink: (relative: string) => mutate(relative, (full) => inner.unlink(full)),
    rmdir: (relative: string) => mutate(relative, (full) => inner.rmdir(full)),
    fsyncDir: async (folder: string) => {
      await checkFolder(folder, folder || '.');
      result.mutations++;
      await inner.fsyncDir(joinRelative(destReal, folder));
    },
  };

  async function deleteEntry(entry: ReplacePlan['deletes'][number]): Promise<void> {
    if (entry.type === 'directory') await ops.rmdir(entry.path);
    else await ops.unlink(entry.path); // files, links (the link itself) and special files alike
    result.deleted.push(entry.path);
    done++;
    progress(entry.path);
  }

  async function sourceBytes(
    plan: ReplacePlan,
    manifestFiles: ReadonlyMap<string, ManifestFile>,
    write: ReplacePlan['writes'][number],
  ): Promise<Buffer> {
    const file = manifestFiles.get(write.source_path);
    if (!file)
      throw new ApplyFailure(
        'invalid_plan',
        `the plan writes "${write.path}" from "${write.source_path}", which its manifest does not list`,
      );
    const read = await readVerifiedSourceFile(plan.sourcePath, file);
    if (!read.ok)
      throw new ApplyFailure('source_changed', `${read.refusal.message}; the source changed after the plan was made`, read.refusal.details);
    const output = outputBytesFor(file, read.bytes);
    if (sha256Of(output) !== write.sha256 || output.length !== write.size) {
      throw new ApplyFailure('source_changed', `output "${write.path}" no longer renders to the bytes the plan recorded`, {
        path: write.path,
      });
    }
    return output;
  }

  try {
    progress();
    // ── check: the destination is still the one planned, and the plan is safe to run ──
    const destEntry = await lstatEntry(plan.destinationPath, '');
    if (destEntry.type === 'symlink') throw new ApplyFailure('unsafe_path', `${plan.destinationPath} is now a symbolic link`);
    if (destEntry.type !== (plan.destinationExists ? 'directory' : 'missing'))
      throw new ApplyFailure('stale_plan', `${plan.destinationPath} changed since the plan was made`);
    destReal = await realPathOf(plan.destinationPath);
    if (destReal !== plan.destinationRealPath)
      throw new ApplyFailure('stale_plan', `${plan.destinationPath} now resolves to ${destReal}, not ${plan.destinationRealPath}`);
    const fresh = await checkFingerprint(destReal, plan.fingerprint);
    if (!fresh.fresh) {
      throw new ApplyFailure(
        'stale_plan',
        `the destination changed since the plan was made: "${fresh.path || '.'}" was ${fresh.planned}, is now ${fresh.now}; make a new plan`,
        { path: fresh.path, planned: fresh.planned, now: fresh.now },
      );
    }
    if (plan.action === 'nothing') {
      result.ok = true;
      return result;
    }
    const newState = plan.newState;
    if (!newState) throw new ApplyFailure('invalid_plan', 'the plan has no new state');
    checkPlanPaths(plan, newState);
    if (plan.mode === 'replace') await checkNormalDeletes(plan, destReal);

    // ── verify: every source byte, before anything is written ──
    phase = 'verify';
    progress();
    // Built once, not searched per write (quadratic: 16 s of lookups at 50,000 outputs). The first
    // entry of a path wins, as Array.find did.
    const manifestFiles = new Map<string, ManifestFile>();
    for (const file of newState.source.manifest.files) if (!manifestFiles.has(file.path)) manifestFiles.set(file.path, file);
    for (const write of plan.writes) await sourceBytes(plan, manifestFiles, write);

    // ── stage: new outputs into the staging folder (a leftover one is cleared first, force only) ──
    phase = 'stage';
    const leftoverStaging = plan.deletes.filter((entry) => isStagingPath(entry.path));
    for (const entry of leftoverStaging) await deleteEntry(entry);
    if (!plan.destinationExists) {
      result.mutations++;
      result.changed = true;
      await inner.mkdir(destReal);
    }
    await ops.mkdir(STAGING_DIR_NAME);
    staged.folders.add(STAGING_DIR_NAME);
    for (const write of plan.writes) {
      if (options.signal?.aborted)
        throw new ApplyFailure('cancelled', 'cancelled before the destination was changed; the staging folder is removed');
      for (const folder of ancestorsOf(write.path)) {
        const stagedFolder = `${STAGING_DIR_NAME}/${folder}`;
        if (staged.folders.has(stagedFolder)) continue;
        await ops.mkdir(stagedFolder);
        staged.folders.add(stagedFolder);
      }
      const output = await sourceBytes(plan, manifestFiles, write);
      // Listed before the write: a write that fails half-way may leave a file to take back out.
      staged.files.add(`${STAGING_DIR_NAME}/${write.path}`);
      await ops.writeFile(`${STAGING_DIR_NAME}/${write.path}`, output);
      bytes += output.length;
      done++;
      progress(write.path);
    }
    if (options.signal?.aborted)
      throw new ApplyFailure('cancelled', 'cancelled before the destination was changed; the staging folder is removed');

    // ── remove_state: from here on no state file claims anything until the new one is in place ──
    phase = 'remove_state';
    pastNoReturn = true;
    const otherDeletes = plan.deletes.filter((entry) => !isStagingPath(entry.path));
    const stateDelete = otherDeletes.find((entry) => entry.path === STATE_FILE_NAME && entry.type !== 'directory');
    if (stateDelete) {
      await deleteEntry(stateDelete);
      await ops.fsyncDir('');
    }

    // ── delete: recorded outputs and their emptied folders (force: everything else) ──
    phase = 'delete';
    for (const entry of otherDeletes) if (entry !== stateDelete) await deleteEntry(entry);

    // ── move: staged outputs into place ──
    phase = 'move';
    const movedFolders = new Set<string>(['']);
    for (const write of plan.writes) {
      for (const folder of ancestorsOf(write.path)) {
        const entry = await lstatEntry(destReal, folder);
        if (entry.type === 'missing') await ops.mkdir(folder);
        else if (entry.type !== 'directory') throw new ApplyFailure('unsafe_path', `"${folder}" is no longer a folder`, { path: folder });
      }
      await ops.rename(`${STAGING_DIR_NAME}/${write.path}`, write.path);
      staged.files.delete(`${STAGING_DIR_NAME}/${write.path}`);
      movedFolders.add(parentOf(write.path));
      result.written.push(write.path);
      done++;
      progress(write.path);
    }
    for (const folder of [...movedFolders].sort().reverse()) await ops.fsyncDir(folder);

    // ── write_state: temporary file (fsynced), rename, fsync of the folder ──
    phase = 'write_state';
    const finalState: State = { ...newState, published_at: formatRfc3339Utc((options.now ?? (() => new Date()))()) };
    const stateBytes = stateFileBytes(finalState);
    await ops.writeFile(`${STAGING_DIR_NAME}/${STATE_TEMP_NAME}`, stateBytes);
    staged.files.add(`${STAGING_DIR_NAME}/${STATE_TEMP_NAME}`);
    await ops.rename(`${STAGING_DIR_NAME}/${STATE_TEMP_NAME}`, STATE_FILE_NAME);
    staged.files.delete(`${STAGING_DIR_NAME}/${STATE_TEMP_NAME}`);
    result.stateWritten = true;
    result.state = finalState;
    result.stateSha256 = sha256Of(stateBytes);
    await ops.fsyncDir('');
    done++;
    progress(STATE_FILE_NAME);

    // ── cleanup: the staging folder, now empty but for its folders ──
    phase = 'cleanup';
    for (const folder of [...staged.folders].reverse()) await ops.rmdir(folder);
    staged.folders.clear();
    phase = 'done';
    progress();
    result.ok = true;
    return result;
  } catch (cause) {
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
    // Before the old state is removed, the destination is as it was but for staging: take it back out.
    if (!pastNoReturn) {
      try {
        for (const file of [...staged.files].reverse()) {
          if ((await lstatEntry(destReal, file)).type !== 'missing') await ops.unlink(file);
        }
        for (const folder of [...staged.folders].reverse()) await ops.rmdir(folder);
      } catch {
        // Left for inspect to report as an interrupted replace; a forced replace clears it.
      }
    }
    return result;
  } finally {
    result.stagingLeft = (await lstatEntry(destReal, STAGING_DIR_NAME).catch(() => ({ type: 'missing' }))).type !== 'missing';
    result.durationMs = Math.round(performance.now() - startedMs);
  }
}
