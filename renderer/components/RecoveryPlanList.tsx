// The lines of a repair plan: every output it rewrites (what verify found, where the bytes come from),
// every one it refuses with the engine's reason, every extra file it keeps. Never cut short: the list
// scrolls, and is focusable so a keyboard can scroll it.

import type { RecoveryLine } from '../view/recoveryView';

const OP_WORDS: Record<RecoveryLine['op'], string> = { rewrite: 'rewrite', refused: 'refused', keep: 'keep' };

export function RecoveryPlanList({ lines, label }: { lines: readonly RecoveryLine[]; label: string }) {
  if (lines.length === 0) return null;
  return (
    <ul className="plan-list recovery" aria-label={label} tabIndex={0} data-testid="repair-plan-list">
      {lines.map((line) => (
        <li key={`${line.op}-${line.path}`} className={line.op}>
          <span className="op">{OP_WORDS[line.op]}</span>
          <span className="path">{line.path}</span>
          <span className="detail">{line.detail}</span>
        </li>
      ))}
    </ul>
  );
}
