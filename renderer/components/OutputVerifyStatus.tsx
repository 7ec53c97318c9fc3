// One output's verify result in the Outputs tab: the badge, and for a drifted output what is on disk
// beside what was recorded, in the words the CLI uses (shared/outputWords.ts). Shows; decides nothing.

import { describeOutputProblem } from '../../shared/outputWords';
import type { OutputVerification } from '../../shared/verifyReport';
import { CopyButton } from './CopyButton';
import { Icon, type IconName } from './Icon';

const OUTPUT_LOOK: Record<string, { label: string; icon: IconName; tone: string }> = {
  ok: { label: 'ok', icon: 'check', tone: 'tone-good' },
  missing: { label: 'missing', icon: 'xCircle', tone: 'tone-danger' },
  size_mismatch: { label: 'size mismatch', icon: 'alert', tone: 'tone-danger' },
  hash_mismatch: { label: 'hash mismatch', icon: 'alert', tone: 'tone-danger' },
  not_a_file: { label: 'not a file', icon: 'stop', tone: 'tone-danger' },
};

/** `stale`: the result no longer describes the disk (shared/verifyFreshness.ts): shown as what it was, without its colour. */
export function OutputVerifyStatus({ verified, stale = false }: { verified: OutputVerification | undefined; stale?: boolean }) {
  if (!verified) return <span className="muted">not verified</span>;
  if (stale)
    return (
      <span className="muted" title="as found by the last verify, which no longer describes the disk">
        was {OUTPUT_LOOK[verified.status]!.label}
      </span>
    );
  const look = OUTPUT_LOOK[verified.status]!;
  const actualHash = verified.status === 'hash_mismatch' ? verified.actual?.sha256 : undefined;
  return (
    <>
      <span className={`badge ${look.tone}`}>
        <Icon name={look.icon} />
        {look.label}
      </span>
      {verified.status !== 'ok' && (
        <p className="output-problem" data-testid="output-problem">
          {describeOutputProblem(verified)}
          {actualHash && <CopyButton value={actualHash} label={`sha256 on disk of ${verified.path}`} />}
        </p>
      )}
    </>
  );
}
