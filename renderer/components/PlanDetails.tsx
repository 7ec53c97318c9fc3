// A plan as the operator reads it before confirming: the bundle it publishes, its counts (the one
// vocabulary, shared/planCounts.ts), then
// every path as one row (create / update / delete / unchanged / keep), filterable, and Export plan.
import type { ReplacePlan } from '../../shared/plan';
import { changedWarning, planCountsWords, planSourceWords, planSummary, rollbackWarning } from '../view/planView';
import { plural } from '../view/format';
import { Icon } from './Icon';
import { PlanRowsList } from './PlanRowsList';

export function PlanDetails({ plan }: { plan: ReplacePlan }) {
  const changed = changedWarning(plan);
  const sourceWords = planSourceWords(plan);
  const rollback = rollbackWarning(plan);
  return (
    <div data-testid={`plan-${plan.mode}`}>
      <p className="plan-source" data-testid="plan-source">
        From source bundle <code>{plan.sourcePath}</code>
        {sourceWords ? ` (${sourceWords})` : ''}
      </p>
      {rollback && (
        <p className="muted" role="note" data-testid="plan-rollback">
          <Icon name="alert" /> {rollback}
        </p>
      )}
      <div className="plan-counts" aria-label="Plan summary">
        <span className="badge" data-testid="plan-totals">
          {planCountsWords(plan)}
        </span>
        {plan.summary.changedCount > 0 && (
          <span className="tone-warning badge" data-testid="plan-changed-count">
            {plural(plan.summary.changedCount, 'changed output')} will be lost
          </span>
        )}
        {plan.nestedDestinations.length > 0 && (
          <span className="tone-danger badge" data-testid="plan-nested-count">
            {plural(plan.nestedDestinations.length, 'nested destination')}
          </span>
        )}
        <span className="muted">{planSummary(plan)}</span>
      </div>
      {changed && (
        <p className="muted" role="note">
          <Icon name="alert" /> {changed}
        </p>
      )}
      <PlanRowsList plan={plan} />
    </div>
  );
}
