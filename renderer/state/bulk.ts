// A replace (or a repair) for several destinations: plan each against its configured source, one after another,
// then (after one confirmation listing them all) apply the planned ones one at a time through
// applyPlan, each journaled by the engine on its own. A refusal or failure of one is kept on its row
// and the next one goes on; Cancel stops before the next one starts (the one running finishes, or is
// cancelled from the status bar like any apply). Thin: the rules are renderer/view/bulkPlan.ts.

import { getClient } from '../api/client';
import {
  bulkApplyOutcome,
  bulkPlanOutcome,
  bulkRepairOutcome,
  NO_SOURCE_REASON,
  stoppedRows,
  stopsTheRun,
  unplannedRows,
  withRow,
  type BulkPlanOutcome,
  type BulkRow,
  type BulkRun,
} from '../view/bulkPlan';
import { bulkModeOf, type BulkMode } from '../view/bulkModes';
import { applyPlan } from './actions';
import { store } from './store';

/** Changes the run started for `ids`, and no other (a workspace opened meanwhile dropped it). */
function updateRun(ids: readonly string[], change: (run: BulkRun) => Partial<BulkRun>): void {
  store.set((state) => (state.bulk && state.bulk.ids === ids ? { bulk: { ...state.bulk, ...change(state.bulk) } } : {}));
}

const current = (ids: readonly string[]) => {
  const run = store.get().bulk;
  return run && run.ids === ids ? run : undefined;
};

/** How one destination is planned in each bulk mode (its words and facts: renderer/view/bulkModes.ts). */
const PLAN_ONE: Record<BulkMode, (destination: string) => Promise<BulkPlanOutcome>> = {
  // Its drifted outputs, from bytes proven from its configured source.
  repair: async (destination) => bulkRepairOutcome(await getClient().invoke('planRepair', { destination })),
  // A normal replace against its configured source: never a forced one (bulkPlan.ts FORCE_NOT_IN_BULK).
  replace: async (destination) => bulkPlanOutcome(await getClient().invoke('planReplace', { destination, mode: 'replace' })),
};

/** Plans each destination in this mode against its configured source, one after another. */
export async function planBulk(destinations: readonly string[], mode: BulkMode): Promise<void> {
  if (store.get().bulk?.phase === 'applying') return;
  const ids = [...destinations];
  store.set({ bulk: { mode, ids, phase: 'planning', rows: ids.map((id) => ({ id })), stopping: false } });
  const entries = new Map((store.get().workspace?.destinations ?? []).map((entry) => [entry.id, entry]));
  for (const id of ids) {
    const run = current(ids);
    if (!run) return;
    if (run.stopping) break;
    const plan: BulkPlanOutcome =
      entries.get(id)?.source === undefined ? { kind: 'refused', reason: NO_SOURCE_REASON } : await PLAN_ONE[mode](id);
    updateRun(ids, (latest) => ({ rows: withRow(latest.rows, id, { plan }) }));
  }
  updateRun(ids, (latest) => ({ phase: 'planned', stopping: false, rows: unplannedRows(latest.rows) }));
}

/** Applies every planned destination of the run, one at a time; the others' answers never stop it. */
export async function applyBulkReplace(): Promise<void> {
  const run = store.get().bulk;
  if (!run || run.phase !== 'planned') return;
  const { ids } = run;
  const planned = run.rows.filter((row): row is BulkRow & { plan: { kind: 'planned'; planId: string } } => row.plan?.kind === 'planned');
  if (planned.length === 0) return;
  updateRun(ids, (latest) => ({
    phase: 'applying',
    stopping: false,
    rows: latest.rows.map((row) => (row.plan?.kind === 'planned' ? { ...row, apply: 'waiting' as const } : row)),
  }));
  for (const row of planned) {
    const latest = current(ids);
    if (!latest) return;
    if (latest.stopping) {
      updateRun(ids, (now) => ({ rows: stoppedRows(now.rows, 'Not run: Cancel was pressed before its turn.') }));
      break;
    }
    updateRun(ids, (now) => ({ rows: withRow(now.rows, row.id, { apply: 'applying' }) }));
    const label = `${bulkModeOf(run.mode).title} ${row.id}`;
    const outcome = bulkApplyOutcome(await applyPlan(row.id, { planId: row.plan.planId, confirmed: true }, label));
    updateRun(ids, (now) => ({ rows: withRow(now.rows, row.id, { apply: outcome }) }));
    if (stopsTheRun(outcome)) {
      updateRun(ids, (now) => ({ rows: stoppedRows(now.rows, 'Not run: the connection to the inspector was lost before its turn.') }));
      break;
    }
  }
  updateRun(ids, () => ({ phase: 'done', stopping: false }));
}

/** Stops the run before the next destination (planning or applying). */
export function stopBulk(): void {
  store.set((state) =>
    state.bulk && (state.bulk.phase === 'planning' || state.bulk.phase === 'applying') ? { bulk: { ...state.bulk, stopping: true } } : {},
  );
}

/** Drops the plans shown (not while they are being applied). */
export function discardBulk(): void {
  store.set((state) => (state.bulk?.phase === 'applying' ? {} : { bulk: undefined }));
}
