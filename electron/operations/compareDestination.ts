// operations/: may be imported by service/ and cli/. The compare use case, written once: read the
// source manifest, inspect the destination, decide with the contract's rules, diff the manifests and
// put the decision in the one wording. When the manifest matches (skip), the outputs are verified
// (engine/verify.ts: size, then sha256) so that a destination edited by hand is never called up to
// date. Read-only; an unusable source is a result, not a throw (a
// destination that cannot be read at all throws, as inspectDestination does). Whether a normal replace
// may run is the one rule's verdict (shared/replaceVerdict.ts), the planner's too: a staging folder
// left by an interrupted replace is named first, in the same words the planner refuses with.

import { compare, destinationStateOf, type Comparison, type ConfiguredIds } from '../../shared/compare';
import { describeComparison, type ComparisonWords } from '../../shared/comparisonWords';
import { interruptedStagingOf } from '../../shared/replaceVerdict';
import { diffManifests, type ManifestDiff } from '../../shared/diffManifests';
import type { Issue } from '../../shared/issues';
import type { Manifest } from '../../shared/manifestSchema';
import { outputDriftOf, type OutputDrift } from '../../shared/outputDrift';
import type { Problem, Result } from '../../shared/result';
import type { ReplacePolicy } from '../../shared/workspaceSchema';
import { inspectDestination, type DestinationInspection } from '../engine/inspectDestination';
import type { HashPool } from '../engine/hashPool';
import { readSource } from '../engine/readSource';
import { verifyDestination } from '../engine/verify';

export interface CompareRequest {
  destinationPath: string;
  /** A source bundle directory or its manifest.json. */
  sourcePath: string;
  configured?: ConfiguredIds;
  replacePolicy?: ReplacePolicy;
  /** The worker pool that verifies the outputs behind a matching manifest (the session's); without it, one is made for the call. */
  pool?: HashPool;
}

export interface DestinationComparison {
  /** The bundle directory the manifest was read from. */
  sourcePath: string;
  manifestFile: string;
  /** Warnings about the source manifest (unknown fields); errors make the source unusable instead. */
  sourceIssues: Issue[];
  inspection: DestinationInspection;
  comparison: Comparison;
  explanation: ComparisonWords;
  /** When the manifest matches (skip): what verifying the outputs against the state found. */
  drift?: OutputDrift;
  /** When the destination holds a valid state. */
  diff?: ManifestDiff;
  current: Manifest;
  recorded?: Manifest;
}

/** The source cannot be compared with: `details.file` is its manifest, `details.issues` say why. */
export type SourceUnusable = Problem & { code: 'invalid_source'; details: { file: string; issues: Issue[] } };

export async function compareDestination(request: CompareRequest): Promise<Result<DestinationComparison, SourceUnusable>> {
  const source = await readSource(request.sourcePath);
  if (!source.ok) {
    const first = source.issues[0];
    return {
      ok: false,
      error: {
        code: 'invalid_source',
        message: `${source.manifestFile}: ${first?.message ?? 'cannot be read'}`,
        details: { file: source.manifestFile, issues: source.issues },
      },
    };
  }
  const inspection = await inspectDestination(request.destinationPath);
  const comparison = compare({
    destination: destinationStateOf(inspection),
    hasContent: inspection.hasContent,
    source: source.manifest,
    configured: request.configured,
  });
  const recorded = inspection.state?.source.manifest;
  // Same manifest: only the outputs' bytes can still say the destination is not what its state records.
  const drift =
    comparison.decision === 'skip' && inspection.state
      ? outputDriftOf(await verifyDestination(inspection.path, inspection.state, { pool: request.pool }))
      : undefined;
  return {
    ok: true,
    value: {
      sourcePath: source.bundleDir,
      manifestFile: source.manifestFile,
      sourceIssues: source.issues,
      inspection,
      comparison,
      explanation: describeComparison(comparison, {
        replaceAllowed: request.replacePolicy !== 'deny',
        interruptedStaging: interruptedStagingOf(inspection.issues),
        destinationPath: inspection.path,
        ...(drift ? { drift } : {}),
      }),
      ...(drift ? { drift } : {}),
      ...(recorded ? { diff: diffManifests(recorded, source.manifest), recorded } : {}),
      current: source.manifest,
    },
  };
}
