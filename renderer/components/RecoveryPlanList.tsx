// The lines of a repair plan: every output it rewrites (what verify found, where the bytes come from),
// every one it refuses with the engine's reason, every extra file it keeps. Never cut short: the list
// scrolls, and is focusable so a keyboard can scroll it. With a `choice`, each drifted output it may
// rewrite carries a box: ticked, rewritten; unticked, kept as it is.

import type { RecoveryLine } from '../view/recoveryView';

const OP_WORDS: Record<RecoveryLine['op'], string> = { rewrite: 'rewrite', refused: 'refused', keep: 'keep' };

export interface RepairChoice {
  unchecked: ReadonlySet<string>;
  onToggle: (path: string, rewrite: boolean) => void;
  disabled: boolean;
}

export function RecoveryPlanList({ lines, label, choice }: { lines: readonly RecoveryLine[]; label: string; choice?: RepairChoice }) {
  if (lines.length === 0) return null;
  return (
    <ul className="plan-list recovery" aria-label={label} tabIndex={0} data-testid="repair-plan-list">
      {lines.map((line, index) => {
        const chosen = choice !== undefined && line.choosable === true;
        const kept = chosen && choice.unchecked.has(line.path);
        const id = `repair-choice-${index}`;
        return (
          <li key={`${line.op}-${line.path}`} className={`${line.op}${chosen ? ' choosable' : ''}${kept ? ' kept' : ''}`}>
            {chosen && (
              <input
                id={id}
                type="checkbox"
                checked={!kept}
                disabled={choice.disabled}
                onChange={(event) => choice.onToggle(line.path, event.target.checked)}
              />
            )}
            <span className="op">{kept ? 'keep as is' : OP_WORDS[line.op]}</span>
            {chosen ? (
              <label htmlFor={id} className="path">
                {line.path}
              </label>
            ) : (
              <span className="path">{line.path}</span>
            )}
            <span className="detail">{kept ? `${line.detail.split(' · ')[0]} · kept as it is, still drifted after` : line.detail}</span>
          </li>
        );
      })}
    </ul>
  );
}
