// Plans a normal or forced replace of one destination: reads the destination, the source manifest
// and the source files, decides with compare(), and returns every path to delete and write plus a
// fingerprint of what it read. Read-only: planning never changes the disk, and it refuses (as data,
// naming the path) rather than plan anything the contract forbids.

import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { compare, destinationStateOf } from '../../shared/compare';
import { describeComparison, refusalMessage } from '../../shared/comparisonWords';
import { interruptedStagingOf, normalReplaceVerdict } from '../../shared/replaceVerdict';
import type { PlanOutcome, PlanWrite, ReplaceMode, ReplacePlan } from '../../shared/plan';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import { chooseStagingName, isRecordedFolder } from '../../shared/staging';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { fingerprintPaths, lstatEntry, stateFileSha256 } from './fingerprint';
import { NAME_MAX } from './nameLimits';
import type { HashPool } from '../engine/hashPool';
import { inspectDestination } from '../engine/inspectDestination';
import { preparePublication, type VerifiedOutputs } from './publish';
import { outputRuleFor } from '../../shared/publishRules';
import { readSource } from '../engine/readSource';
import { verifyDestination } from '../engine/verify';
import { outputDriftOf } from '../../shared/outputDrift';
import { missingDestinationParentRefusal } from './destinationParent';
import { destinationSafetyRefusal, realPathOf, type ProtectedPath } from './safeDestination';
import { refuse, nameLimitRefusal, sourceRefusal } from './planRefusals';
import { planForcedDeletions, planNormalDeletions } from './planDeletions';
import { planKindOf } from '../../shared/planKinds';
import { rememberRecordedOutputs } from './recordedOutputs';

export interface PlanReplaceInput {
  destinationPath: string;
  sourcePath: string;
  mode: ReplaceMode;
  configured?: { pipelineId?: string; destinationId?: string };
  baseUrl?: string;
  /** Configured primary output path (link policy). */
  primary?: string;
  replacePolicy?: 'allow' | 'deny';
  /** Paths a forced replace must never delete, e.g. the workspace file. */
  protectedPaths?: ProtectedPath[];
  /** A forced replace of a folder owned by another user is refused unless this is set (--allow-other-owner). */
  allowOtherOwner?: boolean;
  /** Filled with the outputs' verified bytes, for an apply that follows at once (publish.ts VerifiedOutputs). */
  keepVerified?: VerifiedOutputs;
  /**
   * The plan is applied at once, its marks shown after (`replace --yes`): a large recorded output's
   * "changed on disk" hash is left to the apply, which runs it beside the staging copy (`hashAtApply`).
   */
  hashLargeAtApply?: boolean;
  /** The worker pool that hashes recorded outputs to tell which changed on disk (the session's); without it, one is made for the call. */
  pool?: HashPool;
  /** For tests: the clock, the home directory, the passwd file, the longest name the file system takes, the platform. */
  now?: () => Date;
  platform?: NodeJS.Platform;
  homeDirectory?: string;
  passwdFile?: string;
  nameMax?: number;
}

export async function planReplace(input: PlanReplaceInput): Promise<PlanOutcome> {
  try {
    return await planUnchecked(input);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return refuse('io_error', `planning failed while reading the disk: ${(cause as Error).message}`, code ? { errno: code } : undefined);
  }
}

async function planUnchecked(input: PlanReplaceInput): Promise<PlanOutcome> {
  const dest = path.resolve(input.destinationPath);
  const now = (input.now ?? (() => new Date()))();
  const source = await readSource(input.sourcePath);
  if (!source.ok) return sourceRefusal(source.manifestFile, source.issues);
  const bundleRealPath = await fs.realpath(source.bundleDir);

  const safety = await destinationSafetyRefusal({
    destinationPath: dest,
    sourceRealPath: bundleRealPath,
    mode: input.mode,
    protectedPaths: input.protectedPaths,
    allowOtherOwner: input.allowOtherOwner,
    homeDirectory: input.homeDirectory,
    passwdFile: input.passwdFile,
  });
  if (safety) return { ok: false, error: safety };
  const destExists = (await lstatEntry(dest, '')).type !== 'missing';
  if (!destExists) {
    const parentRefusal = await missingDestinationParentRefusal(dest);
    if (parentRefusal) return { ok: false, error: parentRefusal };
  }

  const inspection = await inspectDestination(dest, { keepStateBytes: true });
  // The apply's check of a normal replace reads the state again: these bytes, parsed here, need no second parse.
  if (inspection.state && inspection.stateBytes) rememberRecordedOutputs(inspection.stateBytes, inspection.state);
  const comparison = compare({
    destination: destinationStateOf(inspection),
    hasContent: inspection.hasContent,
    source: source.manifest,
    configured: input.configured,
  });
  // The one rule (shared/replaceVerdict.ts) decides a normal replace, here as in Compare: the decision,
  // the replace policy and a staging folder an interrupted replace left (as inspect found it).
  const facts = {
    comparison,
    replaceAllowed: input.replacePolicy !== 'deny',
    interruptedStaging: interruptedStagingOf(inspection.issues),
  };
  const planComparison = { ...comparison, explanation: describeComparison(comparison, { ...facts, destinationPath: dest }) };
  // The fingerprint holds the state as apply will read it (also a link or a folder in its place);
  // it must be the state the decision was made on.
  const stateSha256 = await stateFileSha256(dest);
  const decidedOn = inspection.stateSha256 ?? null;
  const stateChanged = decidedOn !== null ? decidedOn !== stateSha256 : stateSha256?.startsWith('sha256:') === true;
  if (stateChanged) {
    return refuse('changed_while_planning', `${path.join(dest, STATE_FILE_NAME)} changed while the plan was being made; plan again`, {
      path: STATE_FILE_NAME,
    });
  }

  const base = {
    planVersion: 1 as const,
    mode: input.mode,
    destinationPath: dest,
    destinationRealPath: await realPathOf(dest),
    destinationExists: destExists,
    sourcePath: bundleRealPath,
    ...(inspection.state
      ? { recordedSource: { id: inspection.state.source.manifest.id, digest: inspection.state.source.manifest.digest } }
      : {}),
    comparison: planComparison,
    plannedAt: formatRfc3339Utc(now),
  };

  const kind = planKindOf(input.mode);
  if (!kind.deletesWholeTree) {
    // The same manifest says nothing of the files: verified, so a drifted destination is never called
    // up to date, and the words are those Compare shows (drift included), also in a refusal.
    if (comparison.decision === 'skip' && inspection.state) {
      const drift = outputDriftOf(await verifyDestination(dest, inspection.state, { pool: input.pool }));
      base.comparison = { ...comparison, explanation: describeComparison(comparison, { ...facts, drift, destinationPath: dest }) };
    }
    const verdict = normalReplaceVerdict(facts);
    if (verdict.outcome === 'refused') return refuse(verdict.code, refusalMessage(base.comparison.explanation), verdict.details);
    if (verdict.outcome === 'nothing') {
      const fingerprint = await fingerprintPaths(dest, ['', STATE_FILE_NAME], stateSha256);
      const summary = { deleteCount: 0, writeCount: 0, deleteBytes: 0, writeBytes: 0, changedCount: 0 };
      const plan: ReplacePlan = {
        ...base,
        action: 'nothing',
        stagingName: '',
        nestedDestinations: [],
        deletes: [],
        writes: [],
        fingerprint,
        summary,
      };
      return { ok: true, value: plan };
    }
  }

  const pipelineId = input.configured?.pipelineId ?? inspection.state?.pipeline_id;
  const destinationId = input.configured?.destinationId ?? inspection.state?.destination_id;
  if (!pipelineId || !destinationId) {
    const missing = [!pipelineId ? 'pipeline_id' : undefined, !destinationId ? 'destination_id' : undefined].filter(Boolean);
    return refuse(
      'ids_required',
      `the destination has no valid state to take ${missing.join(' and ')} from; give them (--pipeline, --destination)`,
      { missing },
    );
  }

  // A working folder no old or new output uses, and that is not an entry on disk (shared/staging.ts).
  // The new outputs' paths follow from the manifest alone (publishRules.ts), before any byte is read.
  const oldOutputs = (inspection.state?.outputs ?? []).map((output) => output.path);
  const newOutputs = source.manifest.files.map((file) => ({ path: outputRuleFor(file.path).path }));
  const newOutputPaths = newOutputs.map((output) => output.path);
  const names = destExists ? new Set(await fs.readdir(dest)) : new Set<string>();
  const stagingName = chooseStagingName(
    (name) => names.has(name) || isRecordedFolder(name, oldOutputs) || isRecordedFolder(name, newOutputPaths),
    () => randomBytes(4).toString('hex'),
  );

  // The source is verified while the deletions are planned: each hashes on its own (the source's
  // large files in this thread, the old outputs in the pool), so a 1 GiB source and a 1 GiB old
  // output take the time of one. Read-only both; their refusals keep their order (source first).
  const deletionPlanned = (
    kind.deletesWholeTree
      ? planForcedDeletions(dest, stateSha256, destExists, stagingName)
      : planNormalDeletions(dest, inspection, stateSha256, newOutputs, stagingName, input.pool, input.hashLargeAtApply)
  ).then(
    (step) => ({ step }),
    (cause: unknown) => ({ cause }),
  );
  const publication = await preparePublication({
    bundleRealPath,
    manifest: source.manifest,
    pipelineId,
    destinationId,
    publishedAt: base.plannedAt,
    baseUrl: input.baseUrl,
    primary: input.primary,
    ...(input.keepVerified ? { keep: input.keepVerified } : {}),
  }).catch(async (cause: unknown) => {
    await deletionPlanned;
    throw cause;
  });
  const deletionDone = await deletionPlanned;
  if (!publication.ok) return publication;
  const tooLong = nameLimitRefusal(
    base.destinationRealPath,
    stagingName,
    publication.value.outputs,
    input.nameMax ?? NAME_MAX,
    input.platform ?? process.platform,
  );
  if (tooLong) return tooLong;
  if ('cause' in deletionDone) throw deletionDone.cause;
  const deletionStep = deletionDone.step;
  if (!deletionStep.ok) return deletionStep;
  const deletion = deletionStep.value;

  const writes: PlanWrite[] = publication.value.outputs.map((output) => ({
    path: output.path,
    size: output.size,
    sha256: output.sha256,
    kind: output.kind,
    source_path: output.source_path,
  }));
  const summary = {
    deleteCount: deletion.deletes.length,
    writeCount: writes.length,
    deleteBytes: deletion.deletes.reduce((sum, entry) => sum + (entry.type === 'directory' ? 0 : entry.size), 0),
    writeBytes: writes.reduce((sum, write) => sum + write.size, 0),
    changedCount: deletion.deletes.filter((entry) => entry.changed !== undefined).length,
  };
  const plan: ReplacePlan = {
    ...base,
    action: 'replace',
    stagingName,
    nestedDestinations: deletion.nestedDestinations,
    ...(deletion.extras ? { extras: deletion.extras } : {}),
    deletes: deletion.deletes,
    ...(deletion.wholeFolders ? { wholeFolders: deletion.wholeFolders } : {}),
    writes,
    newState: publication.value.state,
    fingerprint: deletion.fingerprint,
    summary,
  };
  return { ok: true, value: plan };
}
