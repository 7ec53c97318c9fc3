// Copies a value (a full sha256, a path) and says so, for assistive technology too.
import { useState } from 'react';
import { Icon } from './Icon';

export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  };
  return (
    <button type="button" className="button small" onClick={copy} aria-label={copied ? `Copied ${label}` : `Copy ${label}`} title={value}>
      <Icon name={copied ? 'check' : 'copy'} />
      <span aria-live="polite" className={copied ? '' : 'visually-hidden'}>
        {copied ? 'Copied' : ''}
      </span>
    </button>
  );
}
