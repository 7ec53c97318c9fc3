import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { State } from '../../shared/stateSchema';
import { writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { newStateIssues } from './newStateCheck';

let root: string;
let state: State;

beforeEach(async () => {
  root = await tempDirForTest('new-state-');
  const manifest = await writeBundle(path.join(root, 'source'), { 'report.md': '# Report' });
  state = await writeManagedDestination(path.join(root, 'dest'), { manifest, outputs: { 'report.html': '<p>r</p>' } });
});

describe('the check of a new state before it is written', () => {
  it('passes a valid state, and the same state checked again', () => {
    expect(newStateIssues(state)).toBeUndefined();
    expect(newStateIssues(structuredClone(state))).toBeUndefined();
  });

  it('refuses a state that differs from the last valid one by one output path, right after it passed', () => {
    expect(newStateIssues(state)).toBeUndefined();
    const forged = structuredClone(state);
    forged.outputs[0]!.path = '../outside.html';
    expect(newStateIssues(forged)?.length).toBeGreaterThan(0);
  });

  it('never remembers an invalid state as valid: the same invalid text is refused every time', () => {
    const forged = { ...structuredClone(state), pipeline_id: '' };
    expect(newStateIssues(forged)?.length).toBeGreaterThan(0);
    expect(newStateIssues(forged)?.length).toBeGreaterThan(0);
  });
});
