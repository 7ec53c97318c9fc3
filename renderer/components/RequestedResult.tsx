// A result the user asked for (a plan, a refusal, an apply's outcome): when it arrives it scrolls into
// view in its pane and takes the focus, as a region named for what it is, so it opens where the user
// looks and a screen reader lands on it. Remount it (a `key`) for each new answer; it never moves the
// focus on a re-render of the same one.

import { useEffect, useRef, type ReactNode } from 'react';

/** Focus without the browser's own scroll, then the one scroll that puts the result's top in view. */
export function reveal(element: HTMLElement | null): void {
  if (!element) return;
  element.focus({ preventScroll: true });
  element.scrollIntoView({ block: 'start', inline: 'nearest' });
}

export function RequestedResult({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  const region = useRef<HTMLDivElement>(null);
  useEffect(() => reveal(region.current), []);
  return (
    <div ref={region} role="region" aria-label={label} tabIndex={-1} className="requested-result" data-testid={testId}>
      {children}
    </div>
  );
}
