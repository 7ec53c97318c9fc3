// Above a repair's list: tick every drifted output or none, and the count of the choice, said as it
// changes (a polite live region: a screen reader hears the new count after each box).

import type { ReplacePlan } from '../../shared/plan';
import { choiceCountsText } from '../view/repairChoice';

export function RepairChoiceBar({
  plan,
  unchecked,
  onAll,
  onNone,
  disabled,
}: {
  plan: ReplacePlan;
  unchecked: ReadonlySet<string>;
  onAll: () => void;
  onNone: () => void;
  disabled: boolean;
}) {
  return (
    <div className="repair-choice-bar" role="group" aria-label="Choose the drifted outputs to rewrite">
      <button type="button" className="button small" onClick={onAll} disabled={disabled}>
        Select all
      </button>
      <button type="button" className="button small" onClick={onNone} disabled={disabled}>
        Select none
      </button>
      <span aria-live="polite" data-testid="repair-choice-count">
        {choiceCountsText(plan, unchecked)}
      </span>
      <span className="muted">Untick an output to keep it as it is (an intentional hotfix, say): it stays drifted.</span>
    </div>
  );
}
