// Where a banner's button goes: the tab a section is on and the id of the section on it. The
// Overview's banners name the action that clears what they warn about; their buttons open its tab
// with that section in view and focused (DetailPane's goTo). One table, so a section and the buttons
// that go to it cannot drift apart.

export const SECTION_GOALS = {
  /** Actions → Discard staging: the safe way out of an interrupted apply. */
  discardStaging: { tab: 'actions', id: 'action-discard-staging' },
  /** Actions → Repair: rewrites what verify found drifted. */
  repair: { tab: 'actions', id: 'action-repair' },
  /** Actions → Replace: a normal replace, or the first publish into an empty destination. */
  replace: { tab: 'actions', id: 'action-replace' },
  /** Actions → Forced replace: the way out of unmanaged and invalid destinations. */
  forcedReplace: { tab: 'actions', id: 'action-forced-replace' },
  /** Raw state → its list of issues, each marked in the file's text. */
  rawIssues: { tab: 'raw', id: 'raw-issues' },
} as const;

export type SectionGoal = keyof typeof SECTION_GOALS;

/** What a banner calls to go to a section; absent where nothing can switch tabs (a bare test render). */
export type GoTo = (goal: SectionGoal) => void;
