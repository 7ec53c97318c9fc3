// @vitest-environment happy-dom
// The summary issue of a capped state and a withheld state file, as the detail tabs show them.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DestinationEntry, ResponseOf } from '../../shared/api';
import { IssueCollector } from '../../shared/issueCap';
import { error } from '../../shared/issues';
import { OverviewTab } from './OverviewTab';
import { RawStateTab } from './RawStateTab';

afterEach(cleanup);

const entry: DestinationEntry = { id: 'huge', path: '/srv/huge', replacePolicy: 'allow' };

function hugeInspection(): ResponseOf<'inspectDestination'> {
  const collector = new IssueCollector();
  for (let i = 0; i < 1_800_000; i++) {
    if (collector.wants('invalid_sha256', 'error')) collector.add(error(['outputs', i, 'sha256'], 'invalid_sha256', `bad sha256 ${i}`));
    else collector.count('invalid_sha256', 'error', ['outputs', i, 'sha256']);
  }
  return {
    destination: entry,
    inspection: {
      path: '/srv/huge',
      status: 'invalid',
      issues: collector.issues(),
      hasContent: true,
      stateWithheld: { sizeBytes: 177_000_000 },
    },
    listing: { entries: [], truncated: false },
  };
}

describe('capped issues in the detail tabs', () => {
  it('the Overview counts every error and shows the summary issue with how many more', () => {
    render(<OverviewTab data={hugeInspection()} entry={entry} />);
    expect(screen.getByText('The state file is invalid: 1,800,000 errors')).toBeTruthy();
    expect(screen.getByText(/too large to show; its problems are listed below/)).toBeTruthy();
    expect(screen.getByText('1,799,900 more')).toBeTruthy();
    expect(screen.getByText(/and 1,799,900 more like this \(invalid_sha256, under outputs\)/)).toBeTruthy();
  });

  it('the Raw state tab says the file is too large to show, with its size', () => {
    render(<RawStateTab inspection={hugeInspection().inspection} />);
    expect(screen.getByText('State file too large to show')).toBeTruthy();
    expect(screen.getByText(/The state file is 169 MiB: its text is not shown here/)).toBeTruthy();
  });
});
