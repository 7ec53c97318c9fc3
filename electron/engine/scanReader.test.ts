import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { makeTempDir, stateFor, writeManagedDestination } from '../testing/fixtureTrees';
import { inspectDestination } from './inspectDestination';
import { verifyHere, type RecordedOutput } from './judgeOutputs';
import { listFiles } from './listFiles';
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
  'managed and flat': (at) => writeManagedDestination(at, { 'index.html': 'i', 'b.html': 'b' }),
  'managed, its first output gone, another file there': (at) => {
    writeManagedDestination(at, { 'index.html': 'i', 'b.html': 'b' });
    rmSync(path.join(at, 'index.html'));
  },
  'managed, every output gone': (at) => {
    writeManagedDestination(at, { 'index.html': 'i' });
    rmSync(path.join(at, 'index.html'));
  },
  'managed, its first output a dangling link': (at) => {
    writeManagedDestination(at, { 'index.html': 'i' });
    rmSync(path.join(at, 'index.html'));
    symlinkSync('nowhere', path.join(at, 'index.html'));
  },
  'invalid, flat, nothing else': (at) => {
    mkdirSync(at);
    writeFileSync(path.join(at, STATE_FILE_NAME), '[1, 2]');
  },
  'state is a FIFO, flat': (at) => {
    mkdirSync(at);
    execFileSync('mkfifo', [path.join(at, STATE_FILE_NAME)]);
    writeFileSync(path.join(at, 'a.html'), 'a');
  },
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
    // As it crosses from a worker: inside the outcome's JSON.
    expect(JSON.parse(JSON.stringify(inspection))).toEqual(expected);
    expect(summarizeInspection(inspection, json)).toEqual(summarizeInspection(expected, expected.stateJson));
  });

  // The command line's plain scan: no fingerprint, no verify to walk on, so a folder is listed only
  // where its status needs it (a flat folder with a state file is not: subfolderCount.ts).
  it.each(Object.keys(CASES))('agrees with inspectDestination on a destination that is %s, listing it only if needed', async (name) => {
    const at = path.join(dir, name.replace(/ /g, '-'));
    const { state: _state, stateText: _text, stateJson, ...expected } = await inspectDestination(at, { digests: false });
    const { inspection, json } = inspectDestinationSync(at, { digests: false, withState: false, entries: false });
    expect(inspection).toEqual(expected);
    expect(json).toEqual(stateJson);
    expect(summarizeInspection(inspection, json)).toEqual(summarizeInspection(expected, stateJson));
  });

  // The command line's plain scan reports no `hasContent`: its status and issues must not change when it goes unsettled.
  it.each(Object.keys(CASES))(
    'gives the same status, issues and summary for a destination that is %s when hasContent is left unsettled',
    async (name) => {
      const at = path.join(dir, name.replace(/ /g, '-'));
      const options = { digests: false, withState: false, entries: false };
      const settled = inspectDestinationSync(at, options);
      const { hasContent: _settled, ...expected } = settled.inspection;
      const unsettled = inspectDestinationSync(at, { ...options, settleContent: false });
      const { hasContent: _unsettled, ...inspection } = unsettled.inspection;
      expect(inspection).toEqual(expected);
      expect(summarizeInspection(unsettled.inspection, unsettled.json)).toEqual(summarizeInspection(settled.inspection, settled.json));
    },
  );

  it('does not look for content beside the state file of a flat folder when hasContent is left unsettled', () => {
    // The state's first output is gone, so only a probe (or a listing) could say the folder holds nothing else.
    const at = path.join(dir, 'state-only-outputs-gone');
    mkdirSync(at);
    writeFileSync(path.join(at, STATE_FILE_NAME), JSON.stringify(stateFor({ 'a.html': 'a' })));
    const options = { digests: false, withState: false, entries: false };
    expect(inspectDestinationSync(at, options).inspection.hasContent).toBe(false);
    expect(inspectDestinationSync(at, { ...options, settleContent: false }).inspection.hasContent).toBe(true);
  });

  it('keeps no byte of the buffer its reads share: a state read later never changes an earlier row', () => {
    const first = inspectDestinationSync(path.join(dir, 'managed'));
    const json = JSON.stringify(first.json);
    inspectDestinationSync(path.join(dir, 'invalid-fields'));
    inspectDestinationSync(path.join(dir, 'managed-with-an-unknown-field'), { digests: false, entries: false });
    expect(JSON.stringify(first.inspection.stateJson)).toBe(json);
    expect(JSON.stringify(first.json)).toBe(json);
    expect(first.json).toEqual(JSON.parse(readFileSync(path.join(dir, 'managed', STATE_FILE_NAME), 'utf8')));
  });

  // What scan.ts relies on: for a destination with a valid state, the parsed JSON is the validated state.
  it.each(['managed', 'managed with an unknown field', 'state only', 'interrupted replace'])(
    'hands over the validated state as its parsed JSON for a destination that is %s, also across threads',
    async (name) => {
      const at = path.join(dir, name.replace(/ /g, '-'));
      const { state } = await inspectDestination(at);
      const { stateJson } = inspectDestinationSync(at).inspection;
      expect(state).toBeDefined();
      expect(stateJson).toEqual(state);
      expect(JSON.parse(JSON.stringify(stateJson))).toEqual(state);
    },
  );
});

/** The verify of a worker, with its own read buffer. */
const hasher = () => ({ buffer: Buffer.alloc(64 * 1024), checkedDirs: new Set<string>(), onBytes: () => undefined });

describe('one listing per destination in a scan with verify', () => {
  // Destinations a verify tells apart: extras at the top and deeper, an output missing, one turned
  // into a folder, one into a link, an emptied folder, a staging folder.
  const VERIFIED: Record<string, (at: string) => void> = {
    intact: (at) => writeManagedDestination(at, { 'index.html': 'i', 'pages/a.html': 'a', 'pages/deep/b.html': 'b' }),
    'with extras': (at) => {
      writeManagedDestination(at, { 'index.html': 'i', 'pages/a.html': 'a' });
      writeFileSync(path.join(at, 'notes.txt'), 'by hand');
      mkdirSync(path.join(at, 'pages/empty'), { recursive: true });
      writeFileSync(path.join(at, 'pages/extra.html'), 'x');
      symlinkSync('/etc', path.join(at, 'link-out'));
    },
    drifted: (at) => {
      writeManagedDestination(at, { 'index.html': 'i', 'pages/a.html': 'a', 'b.html': 'b', 'c.html': 'c' });
      writeFileSync(path.join(at, 'index.html'), 'edited');
      rmSync(path.join(at, 'pages/a.html'));
      rmSync(path.join(at, 'b.html'));
      mkdirSync(path.join(at, 'b.html'));
      rmSync(path.join(at, 'c.html'));
      symlinkSync('index.html', path.join(at, 'c.html'));
    },
    'with a staging folder': (at) => {
      writeManagedDestination(at, { 'index.html': 'i' });
      mkdirSync(path.join(at, STAGING_DIR_NAME, 'files'), { recursive: true });
    },
  };

  beforeAll(() => {
    for (const [name, build] of Object.entries(VERIFIED)) build(path.join(dir, `verified-${name.replace(/ /g, '-')}`));
  });

  it.each(Object.keys(VERIFIED))("verifies a destination %s from the inspection's listing exactly as from a listing of its own", (name) => {
    const at = path.join(dir, `verified-${name.replace(/ /g, '-')}`);
    const { inspection, json, entries } = inspectDestinationSync(at);
    expect(inspection.status).toBe('managed');
    expect(entries?.map((entry) => entry.name).sort()).toEqual(readdirSync(at).sort());
    const outputs = (json as { outputs: RecordedOutput[] }).outputs;
    expect(verifyHere(at, outputs, hasher(), entries)).toEqual(verifyHere(at, outputs, hasher()));
  });

  it('walks on from the listing it is given and never lists the root again', () => {
    const at = path.join(dir, 'listed-once');
    writeManagedDestination(at, { 'index.html': 'i', 'pages/a.html': 'a' });
    const { entries } = inspectDestinationSync(at);
    // Appears after the inspection read the folder: only a second listing of the root would see it.
    writeFileSync(path.join(at, 'late.txt'), 'late');
    writeFileSync(path.join(at, 'pages', 'late.html'), 'late');
    const options = { exclude: new Set(['index.html', 'pages/a.html', STATE_FILE_NAME]), expectedDirs: new Set(['pages']) };
    expect(listFiles(at, options, entries)).toEqual(['pages/late.html']);
    expect(listFiles(at, options)).toEqual(['late.txt', 'pages/late.html']);
  });

  it('gives no listing for a destination that is not a real directory, so a verify never walks through a link', () => {
    for (const name of ['missing directory', 'destination is a symlink', 'destination is a file'])
      expect(inspectDestinationSync(path.join(dir, name.replace(/ /g, '-'))).entries).toBeUndefined();
  });
});
