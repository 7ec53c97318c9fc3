// A modal dialog: focus moves in (to the element marked data-autofocus, Cancel for destructive ones),
// Tab stays inside, Esc closes unless locked, and focus returns to where it was.

import { useEffect, useRef, type ReactNode } from 'react';

interface Props {
  title: ReactNode;
  labelId: string;
  descriptionId?: string;
  role?: 'dialog' | 'alertdialog';
  destructive?: boolean;
  /** While work runs, the dialog cannot be dismissed. */
  locked?: boolean;
  onClose: () => void;
  children: ReactNode;
}

const FOCUSABLE =
  'button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), a[href], [tabindex]:not([tabindex="-1"])';

export function Dialog({ title, labelId, descriptionId, role = 'dialog', destructive = false, locked = false, onClose, children }: Props) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const target = panel.current?.querySelector<HTMLElement>('[data-autofocus]') ?? panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    target?.focus();
    return () => previous?.focus?.();
  }, []);

  return (
    <div className="dialog-backdrop" onMouseDown={(event) => event.target === event.currentTarget && !locked && onClose()}>
      <div
        ref={panel}
        className={`dialog ${destructive ? 'destructive' : ''}`}
        role={role}
        aria-modal="true"
        aria-labelledby={labelId}
        aria-describedby={descriptionId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            if (!locked) onClose();
          }
          if (event.key !== 'Tab' || !panel.current) return;
          const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
          const first = items[0];
          const last = items[items.length - 1];
          if (event.shiftKey && document.activeElement === first) {
            event.preventDefault();
            last?.focus();
          } else if (!event.shiftKey && document.activeElement === last) {
            event.preventDefault();
            first?.focus();
          }
        }}
      >
        <h2 id={labelId}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
