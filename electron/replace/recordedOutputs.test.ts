import { describe, expect, it } from 'vitest';
import { parseState } from '../../shared/parseDocument';
import { sampleState } from '../../shared/sampleDocuments';
import type { State } from '../../shared/stateSchema';
import { recordedOutputPaths, rememberRecordedOutputs } from './recordedOutputs';

const bytesOf = (value: unknown) => Buffer.from(JSON.stringify(value, null, 2));
const stateOf = (bytes: Buffer): State => {
  const parsed = parseState(bytes);
  if (parsed.status !== 'managed') throw new Error('the sample state is not valid');
  return parsed.state;
};

describe('the recorded outputs of the state on disk', () => {
  it('are the plan’s for the very same bytes, read again into another buffer', () => {
    const planned = bytesOf(sampleState({ extraFiles: 2 }));
    rememberRecordedOutputs(planned, stateOf(planned));
    expect(recordedOutputPaths(Buffer.from(planned))).toEqual(['report.html', 'pages/page-0.html', 'pages/page-1.html']);
  });

  it('are parsed afresh from bytes that differ from the plan’s, valid or not', () => {
    const planned = bytesOf(sampleState({ extraFiles: 2 }));
    rememberRecordedOutputs(planned, stateOf(planned));
    expect(recordedOutputPaths(bytesOf(sampleState({ extraFiles: 1 })))).toEqual(['report.html', 'pages/page-0.html']);
    // One byte changed, the length kept: the paths of a state that is no longer valid are none.
    const tampered = Buffer.from(planned);
    tampered[tampered.indexOf('"schema_version": 1') + '"schema_version": '.length] = '2'.charCodeAt(0);
    expect(recordedOutputPaths(tampered)).toEqual([]);
  });

  it('are not vouched for by a buffer the plan handed over and that changed since', () => {
    const planned = bytesOf(sampleState({ extraFiles: 2 }));
    rememberRecordedOutputs(planned, stateOf(planned));
    // The same buffer, overwritten in place: only a copy of what was parsed proves anything.
    planned.fill(' ');
    planned.write('{}');
    expect(recordedOutputPaths(planned)).toEqual([]);
  });
});
