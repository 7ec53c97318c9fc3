// A plan as the operator reads it before confirming: counts first, then every path, deletions first.
import type { ReplacePlan } from '../../shared/plan';
import { planLines, planSummary } from '../view/planView';
import { plural } from '../view/format';

export function PlanDetails({ plan }: { plan: ReplacePlan }) {
  const lines = planLines(plan);
  return (
    <div data-testid={`plan-${plan.mode}`}>
      <div className="plan-counts" aria-label="Plan summary">
        <span className="tone-danger badge">{plural(plan.summary.deleteCount, 'path')} to delete</span>
        <span className="tone-good badge">{plural(plan.summary.writeCount, 'file')} to write</span>
        <span className="muted">{planSummary(plan)}</span>
      </div>
      {lines.length > 0 && (
        <ul className="plan-list" aria-label="Every path the plan deletes, then every path it writes">
          {lines.map((line, index) => (
            <li key={`${line.op}-${line.path}-${index}`} className={line.op}>
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
