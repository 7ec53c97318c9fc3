// A plan as the operator reads it before confirming: the bundle it publishes, counts, then every path,
// deletions first.
import type { ReplacePlan } from '../../shared/plan';
import { changedWarning, planLines, planSourceWords, planSummary, rollbackWarning } from '../view/planView';
import { plural } from '../view/format';
import { Icon } from './Icon';

export function PlanDetails({ plan }: { plan: ReplacePlan }) {
  const lines = planLines(plan);
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
        // Focusable: a long plan scrolls, and a keyboard user must be able to scroll it too.
        <ul className="plan-list" aria-label="Every path the plan deletes, then every path it writes" tabIndex={0}>
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
