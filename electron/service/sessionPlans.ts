// Plans under opaque ids: the renderer sees a plan and hands back only its id (and, for a forced
// replace, the destination id typed by the operator); the engine applies the plan it made itself.
// Must never apply a plan the renderer sent, a plan twice, or a forced replace without the typed id.

import path from 'node:path';
import type { ResponseOf } from '../../shared/api';
import type { ReplacePlan } from '../../shared/plan';
import { applyPlan } from '../replace/applyPlan';
import { inspectDestination } from '../engine/inspectDestination';
import { fail } from '../../shared/apiError';
import { planReplace } from '../replace/planReplace';
import { opaqueId } from './opaqueId';
import type { RequestValue, SessionContext } from './sessionContext';
import { scanEntryOf } from './sessionDestinations';

interface StoredPlan {
  plan: ReplacePlan;
  destination: string;
  /** What the operator must type to apply a forced replace. */
  confirmText: string;
}

/** Apply's failure codes that the API names on their own; the rest are refusals. */
const APPLY_ERROR_CODES = { stale_plan: 'stale_plan', cancelled: 'cancelled' } as const;

export function planStore() {
  const plans = new Map<string, StoredPlan>();
  return {
    clear: () => plans.clear(),
    get size() {
      return plans.size;
    },

    async plan(session: SessionContext, request: RequestValue<'planReplace'>): Promise<ResponseOf<'planReplace'>> {
      const destination = session.destination(request.destination);
      const open = session.workspace();
      const sourcePath = request.source ?? destination.source;
      if (sourcePath === undefined)
        throw fail('invalid_source', `no source bundle is configured for "${destination.id}": choose one to plan from`);
      const outcome = await planReplace({
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
        // A forced replace must never delete the workspace file that lists it.
        protectedPaths: open.summary.kind === 'file' ? [open.summary.path] : [],
      });
      if (!outcome.ok) {
        const { refusal } = outcome;
        throw fail(refusal.code === 'source_invalid' ? 'invalid_source' : 'refused', refusal.message, { refusal });
      }
      const inspection = await inspectDestination(destination.path);
      const recordedId = typeof inspection.stateJson?.destination_id === 'string' ? inspection.stateJson.destination_id : undefined;
      const confirmText = request.destinationId ?? destination.destinationId ?? recordedId ?? destination.id;
      const planId = opaqueId('plan');
      plans.set(planId, { plan: outcome.plan, destination: destination.id, confirmText });
      return { planId, plan: outcome.plan, confirmText: request.mode === 'force' ? confirmText : undefined };
    },

    async apply(session: SessionContext, planId: string, confirm: string | undefined): Promise<ResponseOf<'applyPlan'>> {
      const stored = plans.get(planId);
      if (!stored) throw fail('not_found', 'this plan is unknown or was already used: plan again');
      const destination = session.destination(stored.destination);
      if (path.resolve(destination.path) !== path.resolve(stored.plan.destinationPath))
        throw fail('refused', 'the plan is for another destination than its id names now: plan again');
      if (stored.plan.mode === 'force' && confirm !== stored.confirmText) {
        throw fail(
          'confirmation_required',
          `a forced replace deletes everything in ${destination.path}: type the destination id "${stored.confirmText}" to confirm`,
          { expected: stored.confirmText },
        );
      }
      // Two applies at once could both pass their staleness check before either changes the disk.
      if (session.jobs.isRunning('applyPlan'))
        throw fail('refused', 'another replace is running: wait for it to finish, then apply (plan again if it touched this destination)');
      // One plan, one apply: a second click cannot run it again.
      plans.delete(planId);
      const job = session.jobs.start('applyPlan', async (context) => {
        const result = await applyPlan(stored.plan, {
          signal: context.signal,
          onProgress: (p) => context.progress(p.done, p.total, p.bytes),
        });
        // Whatever happened, the list should show the destination as it is now.
        const inspection = await inspectDestination(destination.path).catch(() => undefined);
        if (inspection && session.state.workspace?.byId.get(destination.id) === destination)
          session.workspace().scans.set(destination.id, scanEntryOf(destination, inspection));
        if (!result.ok) {
          const code =
            (result.error?.code ?? '') in APPLY_ERROR_CODES
              ? APPLY_ERROR_CODES[result.error!.code as keyof typeof APPLY_ERROR_CODES]
              : 'refused';
          throw fail(code, result.error?.message ?? 'the replace did not complete', { result });
        }
        return result;
      });
      return { job };
    },
  };
}
