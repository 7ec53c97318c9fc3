// Plans under opaque ids: the renderer sees a plan and hands back only its id (and, for a forced
// replace, the destination id typed by the operator; for a repair, the selection it reviewed); the
// engine applies the plan it made itself. Must never apply a plan the renderer sent, a plan twice, a
// forced replace without the typed id, or a repair whose selection is not the one reviewed.

import path from 'node:path';
import type { ResponseOf } from '../../shared/api';
import type { ConfirmationLevel, PlanRefusal, ReplacePlan } from '../../shared/plan';
import { confirmationOf } from '../../shared/planKinds';
import { requireConsent, type Consent } from './consentGate';
import { fail } from '../../shared/apiError';
import { opaqueId } from './opaqueId';
import type { RequestValue, SessionContext } from './sessionContext';
import { applyReplacePlan } from '../operations/applyReplacePlan';
import type { VerifiedOutputs } from '../replace/publish';
import { planDestinationReplace } from '../operations/planDestinationReplace';
import { planDestinationDiscardStaging, planDestinationRepair } from '../operations/planDestinationRecovery';
import { compareDestinationFolder, planDestinationAdopt } from '../operations/adoptFolder';
import { backupSettingsOf, journalOf } from './sessionStorage';
import { forgetApplied, reportApplied } from './sessionApplied';
import { applyRestoreJob, type StoredRestore } from './sessionBackups';
import { sealPlan } from '../replace/sealedPlan';

interface StoredPlan {
  plan: ReplacePlan;
  destination: string;
  /** How the operator confirms it: asked by the front end, checked again by the consent gate. */
  confirmation: ConfirmationLevel;
  /** What the operator must type when the confirmation is the typed id. */
  confirmText?: string;
  /**
   * The output bytes planning verified, for a plan its caller applies at once (applyAtOnce): staged
   * by the apply instead of reading the source a second time. Held for one plan at a time.
   */
  verified?: VerifiedOutputs;
}

/**
 * How this session's apply of the plan is confirmed (docs/confirmations.md): by its kind and whether
 * the apply keeps a backup here; the text to type is the one the plan names (a forced replace's new
 * destination_id), else the workspace's id of the destination.
 */
function confirmationFor(session: SessionContext, plan: ReplacePlan, destinationId: string, ownText: string | undefined) {
  const confirmation = confirmationOf(plan.mode, backupSettingsOf(session).enabled);
  const confirmText = confirmation === 'typed_id' ? (ownText ?? destinationId) : undefined;
  return { confirmation, ...(confirmText !== undefined ? { confirmText } : {}) };
}

/** A plan's refusal as the API's error: a source that does not read is invalid_source, the rest refused (the refusal in details). */
function refusalError(refusal: PlanRefusal) {
  return fail(refusal.code === 'source_invalid' ? 'invalid_source' : 'refused', refusal.message, { refusal });
}

export function planStore() {
  const plans = new Map<string, StoredPlan>();
  /** Keeps a plan under a new opaque id: the only handle the renderer gets to apply it. */
  // Checked once and sealed (replace/sealedPlan.ts): the plan answered is the one kept, frozen, and
  // its apply does not check it again. A plan the schema refuses is the engine's bug, said as such.
  const keep = (stored: StoredPlan) => {
    const sealed = sealPlan(stored.plan);
    if (!sealed.ok) throw fail('internal', `the engine made a plan that is not a valid plan: ${sealed.problems}`);
    const planId = opaqueId('plan');
    // Verified bytes (up to 256 MiB) are held for the newest plan that asked only: an older plan
    // that was never applied reads its source again, as every plan without them does.
    if (stored.verified) for (const other of plans.values()) delete other.verified;
    plans.set(planId, { ...stored, plan: sealed.plan });
    return { planId, plan: sealed.plan };
  };
  // Restores of a backup (sessionBackups.ts): planned apart, applied through the same applyPlan.
  const restores = new Map<string, StoredRestore>();
  return {
    clear: () => {
      plans.clear();
      restores.clear();
    },
    /** Forgets the plans of these destinations (gone from the workspace, or configured otherwise now). */
    dropFor: (ids: ReadonlySet<string>) => {
      for (const [planId, stored] of plans) if (ids.has(stored.destination)) plans.delete(planId);
      for (const [planId, stored] of restores) if (ids.has(stored.destination)) restores.delete(planId);
    },
    get size() {
      return plans.size + restores.size;
    },
    /** Keeps a restore plan under a new opaque id. */
    keepRestore(stored: StoredRestore): string {
      const planId = opaqueId('plan');
      restores.set(planId, stored);
      return planId;
    },

    async plan(session: SessionContext, request: RequestValue<'planReplace'>): Promise<ResponseOf<'planReplace'>> {
      const destination = session.destination(request.destination);
      const open = session.workspace();
      const sourcePath = request.source !== undefined ? session.typedPath(request.source, 'source') : destination.source;
      if (sourcePath === undefined)
        throw fail('invalid_source', `no source bundle is configured for "${destination.id}": choose one to plan from`);
      const verified: VerifiedOutputs | undefined = request.applyAtOnce ? new Map() : undefined;
      const planned = await planDestinationReplace({
        destinationPath: destination.path,
        sourcePath,
        mode: request.mode,
        configured: {
          pipelineId: request.pipelineId ?? destination.pipelineId,
          destinationId: request.destinationId ?? destination.destinationId,
        },
        baseUrl: request.baseUrl ?? destination.baseUrl,
        primary: destination.primary,
        replacePolicy: destination.replacePolicy,
        allowOtherOwner: request.allowOtherOwner,
        pool: session.hashPool(),
        ...(verified ? { keepVerified: verified, hashLargeAtApply: true } : {}),
        // A forced replace must never delete the workspace file that lists it, nor the journal that records it.
        protectedPaths: [
          ...(open.summary.kind === 'file' ? [open.summary.path] : []),
          { path: journalOf(session), what: 'the history journal' },
        ],
      });
      if (!planned.ok) throw refusalError(planned.error);
      const { plan, confirmText } = planned.value;
      const confirm = confirmationFor(session, plan, destination.id, confirmText);
      return { ...keep({ plan, destination: destination.id, ...confirm, ...(verified ? { verified } : {}) }), ...confirm };
    },

    /** A repair from the configured source, or the bundle the operator chose (proven bytes only come from a source), keeping what the operator chose to keep. */
    async planRepair(session: SessionContext, request: RequestValue<'planRepair'>): Promise<ResponseOf<'planRepair'>> {
      const destination = session.destination(request.destination);
      const sourcePath = request.source !== undefined ? session.typedPath(request.source, 'source') : destination.source;
      if (sourcePath === undefined)
        throw fail(
          'invalid_source',
          `no source bundle is configured for "${destination.id}": choose the one it was published from to repair from`,
        );
      const planned = await planDestinationRepair({
        destinationPath: destination.path,
        sourcePath,
        configured: { pipelineId: destination.pipelineId, destinationId: destination.destinationId },
        replacePolicy: destination.replacePolicy,
        pool: session.hashPool(),
        ...(request.keep !== undefined ? { keep: request.keep } : {}),
      });
      if (!planned.ok) throw refusalError(planned.error);
      const confirm = confirmationFor(session, planned.value.plan, destination.id, undefined);
      return { ...keep({ plan: planned.value.plan, destination: destination.id, ...confirm }), ...confirm };
    },

    async planDiscardStaging(
      session: SessionContext,
      request: RequestValue<'planDiscardStaging'>,
    ): Promise<ResponseOf<'planDiscardStaging'>> {
      const destination = session.destination(request.destination);
      const planned = await planDestinationDiscardStaging({ destinationPath: destination.path });
      if (!planned.ok) throw refusalError(planned.error);
      const confirm = confirmationFor(session, planned.value.plan, destination.id, undefined);
      return { ...keep({ plan: planned.value.plan, destination: destination.id, ...confirm }), ...confirm };
    },

    /** A folder compare against the configured source, or the bundle the operator chose. */
    async compareFolder(session: SessionContext, request: RequestValue<'compareFolder'>): Promise<ResponseOf<'compareFolder'>> {
      const destination = session.destination(request.destination);
      const sourcePath = request.source !== undefined ? session.typedPath(request.source, 'source') : destination.source;
      if (sourcePath === undefined)
        throw fail('invalid_source', `no source bundle is configured for "${destination.id}": choose one to compare the folder with`);
      const compared = await compareDestinationFolder({
        destinationPath: destination.path,
        sourcePath,
        baseUrl: destination.baseUrl,
        primary: destination.primary,
        pool: session.hashPool(),
      });
      if (!compared.ok) throw refusalError(compared.error);
      return compared.value;
    },

    /** An adopt of an unmanaged folder whose files already match the source: the state it writes records the workspace's ids. */
    async planAdopt(session: SessionContext, request: RequestValue<'planAdopt'>): Promise<ResponseOf<'planAdopt'>> {
      const destination = session.destination(request.destination);
      const open = session.workspace();
      const sourcePath = request.source !== undefined ? session.typedPath(request.source, 'source') : destination.source;
      if (sourcePath === undefined)
        throw fail('invalid_source', `no source bundle is configured for "${destination.id}": choose the one its files match`);
      const planned = await planDestinationAdopt({
        destinationPath: destination.path,
        sourcePath,
        configured: {
          pipelineId: request.pipelineId ?? destination.pipelineId,
          destinationId: request.destinationId ?? destination.destinationId,
        },
        baseUrl: destination.baseUrl,
        primary: destination.primary,
        pool: session.hashPool(),
        protectedPaths: [
          ...(open.summary.kind === 'file' ? [open.summary.path] : []),
          { path: journalOf(session), what: 'the history journal' },
        ],
      });
      if (!planned.ok) throw refusalError(planned.error);
      const confirm = confirmationFor(session, planned.value.plan, destination.id, undefined);
      return { ...keep({ plan: planned.value.plan, destination: destination.id, ...confirm }), ...confirm };
    },

    async apply(
      session: SessionContext,
      planId: string,
      consent: Consent & { reportAfter?: boolean | undefined },
    ): Promise<ResponseOf<'applyPlan'>> {
      const { includeNested, acceptPartial } = consent;
      const reportAfter = consent.reportAfter !== false;
      const restore = restores.get(planId);
      if (restore) return applyRestoreJob(session, restore, consent, () => restores.delete(planId));
      const stored = plans.get(planId);
      if (!stored) throw fail('not_found', 'this plan is unknown or was already used: plan again');
      const destination = session.destination(stored.destination);
      if (path.resolve(destination.path) !== path.resolve(stored.plan.destinationPath))
        throw fail('refused', 'the plan is for another destination than its id names now: plan again');
      requireConsent(
        {
          plan: stored.plan,
          confirmation: stored.confirmation,
          confirmText: stored.confirmText,
          busy: session.jobs.isRunning('applyPlan'),
        },
        consent,
      );
      // One plan, one apply: a second click cannot run it again.
      plans.delete(planId);
      const historyFile = journalOf(session);
      const backupSettings = backupSettingsOf(session);
      const job = session.jobs.start('applyPlan', async (context) => {
        // Its own writes are no news: the apply reads and verifies the destination afterwards.
        const unmute = session.muteLiveRefresh(destination.id);
        const applied = await applyReplacePlan(stored.plan, {
          signal: context.signal,
          onProgress: (p) => context.progress(p.done, p.total, p.bytes, p.step),
          includeNested,
          acceptPartial,
          verifyAfter: reportAfter,
          inspectAfter: reportAfter,
          ...(stored.verified ? { verified: stored.verified } : {}),
          pool: session.hashPool(),
          history: { file: historyFile, transport: session.options.transport, destinationId: destination.id },
          backup: { settings: backupSettings, destinationId: destination.id },
        }).finally(unmute);
        const { result } = applied;
        // Whatever happened, the destination as it is now (verified when a new state is in place);
        // without a report, what the session held of it is dropped, to be read again when asked.
        if (reportAfter) await reportApplied(session, context, destination, applied);
        else forgetApplied(session, destination.id);
        // Refused, failed or done, the result is the ApplyResult: what changed, whether the state was written, what was left.
        return result;
      });
      return { job };
    },
  };
}
