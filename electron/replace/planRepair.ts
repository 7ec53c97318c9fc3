// Plans a repair of one managed destination: verify finds the recorded outputs that are missing,
// changed or not a file, and each is rewritten from bytes proven to hash to its recorded sha256
// (expectedBytes.ts). The state file is not rewritten (the outputs come to match it again) and extra
// files are kept. An output whose bytes cannot be proven, or that cannot be reached without going
// through a link or removing something that is not the drifted output itself, is refused by name;
// the rest go ahead only if the operator accepts the partial repair. The operator may also keep some
// drifted outputs as they are (`keep`): the plan then leaves them out. Read-only, like planReplace.

import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { compare, destinationStateOf } from '../../shared/compare';
import { describeComparison } from '../../shared/comparisonWords';
import { interruptedStagingOf } from '../../shared/replaceVerdict';
import type { PlanDelete, PlanOutcome, PlanWrite, RepairDetails, RepairRefusal, ReplacePlan } from '../../shared/plan';
import { selectRepair } from '../../shared/repairSelection';
import { problem, type Result } from '../../shared/result';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import { chooseStagingName, isRecordedFolder } from '../../shared/staging';
import { STATE_FILE_NAME, type OutputRecord } from '../../shared/stateSchema';
import type { OutputVerification } from '../../shared/verifyReport';
import type { HashPool } from '../engine/hashPool';
import { inspectDestination } from '../engine/inspectDestination';
import { readSource } from '../engine/readSource';
import { interruptedStagingFolders } from '../engine/stagingReader';
import { verifyDestination } from '../engine/verify';
import { expectedOutputBytes } from './expectedBytes';
import { fingerprintPaths, joinRelative, lstatEntry, mountPointsAmong, stateFileSha256 } from './fingerprint';
import { ancestorsOf } from './planPaths';
import { destinationSafetyRefusal, realPathOf } from './safeDestination';

export interface PlanRepairInput {
  destinationPath: string;
  /** The source bundle the expected bytes are proven from (a directory holding manifest.json). */
  sourcePath: string;
  configured?: { pipelineId?: string; destinationId?: string };
  replacePolicy?: 'allow' | 'deny';
  /** The worker pool verify hashes in (the session's); without it, one is made for the call. */
  pool?: HashPool;
  now?: () => Date;
  /**
   * Drifted outputs the operator chose to leave as they are (a hotfix): the plan neither writes nor
   * deletes them and lists them in `repair.kept` (shared/repairSelection.ts); a path it would not
   * rewrite is refused by name.
   */
  keep?: readonly string[];
}

type DriftStatus = RepairRefusal['status'];

const refuse = (code: string, message: string, details?: Record<string, unknown>): PlanOutcome => ({
  ok: false,
  error: problem(code, message, details),
});

const depth = (relative: string) => relative.split('/').length;

/** What stands in the way of rewriting one drifted output: the delete it needs (if any), or a refusal. */
async function clearingOf(
  dest: string,
  record: OutputRecord,
  status: DriftStatus,
  touched: Set<string>,
): Promise<Result<PlanDelete | undefined, RepairRefusal>> {
  const refused = (code: string, message: string) => ({ ok: false as const, error: { path: record.path, status, code, message } });
  for (const folder of ancestorsOf(record.path)) {
    touched.add(folder);
    const entry = await lstatEntry(dest, folder);
    if (entry.type === 'directory') continue;
    if (entry.type === 'missing') return { ok: true, value: undefined };
    if (entry.type === 'symlink')
      return refused(
        'parent_is_symlink',
        `the folder "${folder}" of output "${record.path}" is a symbolic link; a repair never writes through a link (remove the link, or use a forced replace)`,
      );
    return refused(
      'parent_is_file',
      `output "${record.path}" needs the folder "${folder}", but a file is there; a repair never removes anything but the drifted output itself`,
    );
  }
  touched.add(record.path);
  const entry = await lstatEntry(dest, record.path);
  if (entry.type === 'missing') return { ok: true, value: undefined };
  if (entry.type === 'directory') {
    const names = await fs.readdir(joinRelative(dest, record.path));
    if (names.length > 0)
      return refused(
        'directory_in_place',
        `a folder holding ${names.length} entr${names.length === 1 ? 'y' : 'ies'} is where output "${record.path}" goes; a repair never deletes a folder's contents (move it away, then repair again)`,
      );
    return { ok: true, value: { path: record.path, type: 'directory', size: 0, changed: 'not_a_file' } };
  }
  const changed = status === 'missing' ? 'not_a_file' : status;
  // A link is removed as a link (never followed), a FIFO or device as the name it is.
  return { ok: true, value: { path: record.path, type: entry.type, size: entry.size, changed } };
}

export async function planRepair(input: PlanRepairInput): Promise<PlanOutcome> {
  try {
    const planned = await planUnchecked(input);
    return planned.ok && input.keep !== undefined && input.keep.length > 0 ? selectRepair(planned.value, input.keep) : planned;
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return refuse(
      'io_error',
      `planning the repair failed while reading the disk: ${(cause as Error).message}`,
      code ? { errno: code } : undefined,
    );
  }
}

async function planUnchecked(input: PlanRepairInput): Promise<PlanOutcome> {
  const dest = path.resolve(input.destinationPath);
  const source = await readSource(input.sourcePath);
  if (!source.ok) {
    const first = source.issues.find((issue) => issue.severity === 'error');
    return refuse('source_invalid', `${source.manifestFile}: ${first?.message ?? 'cannot be read'}`, {
      file: source.manifestFile,
      issues: source.issues,
    });
  }
  const bundleRealPath = await fs.realpath(source.bundleDir);
  // The checks of a normal replace: the destination is a real folder, not holding the source or inside it.
  const safety = await destinationSafetyRefusal({ destinationPath: dest, sourceRealPath: bundleRealPath, mode: 'replace' });
  if (safety) return { ok: false, error: safety };
  if ((await lstatEntry(dest, '')).type !== 'directory') return refuse('no_state', `${dest} does not exist: there is nothing to repair`);

  const inspection = await inspectDestination(dest);
  const state = inspection.status === 'managed' ? inspection.state : undefined;
  if (!state) {
    const why = inspection.status === 'invalid' ? 'its state file is not valid' : 'it holds no state file';
    return refuse(
      inspection.status === 'invalid' ? 'state_invalid' : 'no_state',
      `${dest} cannot be repaired: ${why}, so nothing says what its outputs should be; a forced replace is the way out`,
      { status: inspection.status },
    );
  }
  const stateSha256 = await stateFileSha256(dest);
  if (stateSha256 !== (inspection.stateSha256 ?? null))
    return refuse('changed_while_planning', `${path.join(dest, STATE_FILE_NAME)} changed while the plan was being made; plan again`, {
      path: STATE_FILE_NAME,
    });

  const report = await verifyDestination(dest, state, input.pool ? { pool: input.pool } : {});
  const records = new Map(state.outputs.map((output) => [output.path, output]));
  const drifted = report.outputs.filter((output): output is OutputVerification & { status: DriftStatus } => output.status !== 'ok');

  const oldOutputs = state.outputs.map((output) => output.path);
  const names = new Set(await fs.readdir(dest));
  const stagingName = chooseStagingName(
    (name) => names.has(name) || isRecordedFolder(name, oldOutputs),
    () => randomBytes(4).toString('hex'),
  );
  const touched = new Set<string>(['', STATE_FILE_NAME, stagingName]);
  const deletes: PlanDelete[] = [];
  const writes: PlanWrite[] = [];
  const repairs: RepairDetails['repairs'] = [];
  const refused: RepairRefusal[] = [];
  for (const found of drifted) {
    const record = records.get(found.path);
    if (!record) continue;
    const clearing = await clearingOf(dest, record, found.status, touched);
    if (!clearing.ok) {
      refused.push(clearing.error);
      continue;
    }
    const proven = await expectedOutputBytes(record, bundleRealPath, state.source.manifest);
    if (!proven.ok) {
      refused.push({ path: record.path, status: found.status, code: proven.error.code, message: proven.error.message });
      continue;
    }
    if (clearing.value) deletes.push(clearing.value);
    writes.push({ path: record.path, size: record.size, sha256: record.sha256, kind: record.kind, source_path: record.source_path });
    repairs.push({ path: record.path, status: found.status, origin: proven.value.origin });
  }
  deletes.sort((a, b) => depth(b.path) - depth(a.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const fingerprint = await fingerprintPaths(dest, touched, stateSha256);
  const mountPoints = await mountPointsAmong(dest, fingerprint.entries);
  if (mountPoints.length > 0)
    return refuse(
      'crosses_mount_point',
      `${joinRelative(dest, mountPoints[0] as string)} is a mount point; a repair never writes into another file system`,
      { path: mountPoints[0], mountPoints },
    );

  const comparison = compare({
    destination: destinationStateOf(inspection),
    hasContent: inspection.hasContent,
    source: source.manifest,
    configured: input.configured,
  });
  const manifest = state.source.manifest;
  const plan: ReplacePlan = {
    planVersion: 1,
    mode: 'repair',
    action: writes.length > 0 ? 'replace' : 'nothing',
    destinationPath: dest,
    destinationRealPath: await realPathOf(dest),
    destinationExists: true,
    sourcePath: bundleRealPath,
    recordedSource: { id: manifest.id, digest: manifest.digest },
    stagingName: writes.length > 0 ? stagingName : '',
    nestedDestinations: [],
    comparison: {
      ...comparison,
      explanation: describeComparison(comparison, {
        replaceAllowed: input.replacePolicy !== 'deny',
        interruptedStaging: interruptedStagingOf(inspection.issues),
        destinationPath: dest,
      }),
    },
    deletes,
    writes,
    repair: {
      driftedCount: drifted.length,
      repairs,
      refused,
      extras: report.extra,
      interruptedStaging: interruptedStagingFolders(dest, oldOutputs),
    },
    fingerprint,
    plannedAt: formatRfc3339Utc((input.now ?? (() => new Date()))()),
    summary: {
      deleteCount: deletes.length,
      writeCount: writes.length,
      deleteBytes: deletes.reduce((sum, entry) => sum + (entry.type === 'directory' ? 0 : entry.size), 0),
      writeBytes: writes.reduce((sum, write) => sum + write.size, 0),
      changedCount: deletes.length,
    },
  };
  return { ok: true, value: plan };
}
