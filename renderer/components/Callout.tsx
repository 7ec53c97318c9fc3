// A boxed message with a tone, an icon and a title: for states the operator must notice.
import type { ReactNode } from 'react';
import type { Tone } from '../../shared/comparisonWords';
import { Icon, type IconName } from './Icon';

const ICONS: Record<Tone, IconName> = { good: 'checkCircle', info: 'info', warning: 'alert', danger: 'stop' };

export function Callout({ tone, title, children, role }: { tone: Tone; title: string; children?: ReactNode; role?: 'status' | 'alert' }) {
  return (
    <div className={`callout tone-${tone}`} role={role}>
      <Icon name={ICONS[tone]} />
      <div className="callout-body">
        <strong>{title}</strong>
        {children}
      </div>
    </div>
  );
}
