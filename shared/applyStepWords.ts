// An apply's phase in words, with its own count: "staging 3,400 / 10,000". One wording for the CLI's
// progress line and the renderer's job row. Pure.

import type { ApplyStep } from './plan';

const count = (n: number) => n.toLocaleString('en-US');

export function describeApplyStep(step: ApplyStep): string {
  const of = `${count(step.done)} / ${count(step.total)}`;
  switch (step.phase) {
    case 'check':
      return 'checking the destination against the plan';
    case 'verify':
      return `checking the source ${of}`;
    case 'stage':
      return `staging ${of}`;
    case 'backup':
      return step.total === 0
        ? 'keeping a backup: nothing to keep'
        : `keeping a backup of ${count(step.total)} entr${step.total === 1 ? 'y' : 'ies'}`;
    case 'remove_state':
      return 'removing the old state file';
    case 'delete':
      return step.total === 0 ? 'deleting: nothing to delete' : `deleting ${of}`;
    case 'move':
      return `moving into place ${of}`;
    case 'write_state':
      return 'writing the state';
    case 'cleanup':
      return 'removing the staging folder';
    case 'done':
      return 'done';
  }
}
