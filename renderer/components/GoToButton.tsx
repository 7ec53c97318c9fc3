// A banner's button to the action that clears what it warns about: it opens the tab that holds the
// action with its section in view and focused (DetailPane's goTo). Not shown where nothing can switch
// tabs, so a banner never offers a button that does nothing.

import type { ReactNode } from 'react';
import type { GoTo, SectionGoal } from '../view/sectionGoals';

export function GoToButton({ goal, onGoTo, children }: { goal: SectionGoal; onGoTo: GoTo | undefined; children: ReactNode }) {
  if (!onGoTo) return null;
  return (
    <div className="button-row callout-actions">
      <button type="button" className="button" onClick={() => onGoTo(goal)} data-goal={goal}>
        {children}
      </button>
    </div>
  );
}
