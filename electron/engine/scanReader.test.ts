import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { makeTempDir, stateFor, writeManagedDestination } from '../testing/fixtureTrees';
import { inspectDestination } from './inspectDestination';
import { inspectDestinationSync, summarizeInspection } from './scanReader';

let dir: string;
let remove: () => Promise<void>;

// One destination of every kind the two readers must agree on.
const CASES: Record<string, (at: string) => void> = {
  'missing directory': () => undefined,
  'empty directory': (at) => mkdirSync(at),
  unmanaged: (at) => {
    mkdirSync(at);
    writeFileSync(path.join(at, 'index.html'), 'hand made');
  },
  managed: (at) => writeManagedDestination(at, { 'index.html': 'i', 'pages/a.html': 'a' }),
  'managed with an unknown field': (at) => {
    mkdirSync(at);
    writeFileSync(path.join(at, STATE_FILE_NAME), JSON.stringify({ ...stateFor({ 'a.html': 'a' }), extra_field: { kept: true } }));
  },
  'state only': (at) => {
    mkdirSync(at);
    writeFileSync(path.join(at, STATE_FILE_NAME), JSON.stringify(stateFor({})));
  },
  'invalid JSON': (at) => {
    mkdirSync(at);
    writeFileSync(path.join(at, STATE_FILE_NAME), '{"schema_version": 1,');
  },
  'invalid fields': (at) => {
    mkdirSync(at);
    writeFileSync(
      path.join(at, STATE_FILE_NAME),
      JSON.stringify({ ...stateFor({ 'a.html': 'a' }), schema_version: '1', published_at: '2026-02-30T00:00:00Z' }),
    );
  },
  'not UTF-8': (at) => {
    mkdirSync(at);
    writeFileSync(path.join(at, STATE_FILE_NAME), Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
  },
  'state is a directory': (at) => mkdirSync(path.join(at, STATE_FILE_NAME), { recursive: true }),
  'state is a symlink': (at) => {
    writeManagedDestination(`${at}-real`, { 'a.html': 'a' });
    mkdirSync(at);
    symlinkSync(path.join(`${at}-real`, STATE_FILE_NAME), path.join(at, STATE_FILE_NAME));
  },
  'state is a FIFO': (at) => {
    mkdirSync(at);
    execFileSync('mkfifo', [path.join(at, STATE_FILE_NAME)]);
  },
  'destination is a symlink': (at) => {
    writeManagedDestination(`${at}-target`, { 'a.html': 'a' });
    symlinkSync(`${at}-target`, at);
  },
  'destination is a file': (at) => writeFileSync(at, 'file'),
  'interrupted replace': (at) => {
    writeManagedDestination(at, { 'a.html': 'a' });
    mkdirSync(path.join(at, STAGING_DIR_NAME));
  },
  'interrupted first publish': (at) => mkdirSync(path.join(at, STAGING_DIR_NAME), { recursive: true }),
};

beforeAll(async () => {
  ({ dir, remove } = await makeTempDir('scan-reader-test'));
  for (const [name, build] of Object.entries(CASES)) build(path.join(dir, name.replace(/ /g, '-')));
});
afterAll(async () => remove());

describe('the scan reader', () => {
  it.each(Object.keys(CASES))('agrees with inspectDestination on a destination that is %s', async (name) => {
    const at = path.join(dir, name.replace(/ /g, '-'));
    const { state: _state, stateText: _text, ...expected } = await inspectDestination(at);
    const { inspection, json } = inspectDestinationSync(at);
    const { stateJsonText, ...wire } = inspection;
    const rebuilt = stateJsonText === undefined ? wire : { ...wire, stateJson: JSON.parse(stateJsonText) };
    expect(rebuilt).toEqual(expected);
    expect(summarizeInspection(inspection, json)).toEqual(summarizeInspection(expected, expected.stateJson));
  });

  // What scan.ts relies on: for a destination with a valid state, the parsed JSON is the validated state.
  it.each(['managed', 'managed with an unknown field', 'state only', 'interrupted replace'])(
    'hands over the validated state as its parsed JSON for a destination that is %s',
    async (name) => {
      const at = path.join(dir, name.replace(/ /g, '-'));
      const { state } = await inspectDestination(at);
      const { stateJsonText } = inspectDestinationSync(at).inspection;
      expect(state).toBeDefined();
      expect(JSON.parse(stateJsonText ?? 'null')).toEqual(state);
    },
  );
});
