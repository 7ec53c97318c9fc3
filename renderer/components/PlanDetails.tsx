// A plan as the operator reads it before confirming: counts first, then every path, deletions first.
import type { ReplacePlan } from '../../shared/plan';
import { changedWarning, planLines, planSummary } from '../view/planView';
import { plural } from '../view/format';
import { Icon } from './Icon';

export function PlanDetails({ plan }: { plan: ReplacePlan }) {
  const lines = planLines(plan);
  const changed = changedWarning(plan);
  return (
    <div data-testid={`plan-${plan.mode}`}>
      <div className="plan-counts" aria-label="Plan summary">
        <span className="tone-danger badge">{plural(plan.summary.deleteCount, 'path')} to delete</span>
        <span className="tone-good badge">{plural(plan.summary.writeCount, 'file')} to write</span>
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
      {lines.length > 0 && (
        <ul className="plan-list" aria-label="Every path the plan deletes, then every path it writes">
          {lines.map((line, index) => (
            <li key={`${line.op}-${line.path}-${index}`} className={line.changed ? `${line.op} changed` : line.op}>
              <span className="op">{line.op === 'delete' ? 'delete' : 'write'}</span>
              <span className="path">{line.path}</span>
              <span className="detail">{line.detail}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
