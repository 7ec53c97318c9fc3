import fc from 'fast-check';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { runCliCaptured } from '../testing/cliCapture';

// Anything a terminal would act on, once our own colour, erase-line and progress sequences are set aside.

const ACTS_ON_TERMINAL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const OUR_SEQUENCES = /\u001b\[[0-9;]*m|\r\u001b\[K/g;

const TITLE = '\u001b]0;pwned\u0007';
const CLIPBOARD = '\u001b]52;c;cm0gLXJmIH4=\u0007';
const RETYPE = '\rstatus managed';
const BIDI = '\u202etxt.exe';

let dir: string;
beforeEach(async () => {
  dir = await tempDirForTest('hostile-text-');
});

const cli = (argv: string[], { isTerminal = false, answer = '' } = {}) =>
  runCliCaptured(argv, { cwd: dir, ...(isTerminal ? { answer } : {}) });

function expectNothingForTheTerminal(...texts: string[]): void {
  for (const text of texts)
    for (const line of text.split('\n')) expect(line.replace(OUR_SEQUENCES, ''), JSON.stringify(line)).not.toMatch(ACTS_ON_TERMINAL);
}

/** A managed destination whose ids, unknown field and extra file names carry escape sequences. */
async function hostileDestination(name = `dest${TITLE}`) {
  const manifest = await writeBundle(
    path.join(dir, 'src'),
    { 'report.md': '# New' },
    { id: `id${CLIPBOARD}`, created: '2026-06-05T09:00:00Z' },
  );
  const dest = path.join(dir, name);
  const state = await writeManagedDestination(dest, {
    pipelineId: `reports${TITLE}`,
    destinationId: `archive${RETYPE}`,
    manifest: { ...manifest, created: '2026-06-04T09:00:00Z' },
    outputs: { [`report${BIDI}.html`]: 'old' },
    extras: { [`extra${CLIPBOARD}.txt`]: 'x', [`line\nbreak${RETYPE}.txt`]: 'y' },
  });
  await fs.writeFile(path.join(dest, STATE_FILE_NAME), JSON.stringify({ ...state, [`field${TITLE}`]: 1 }));
  await fs.writeFile(path.join(dest, `report${BIDI}.html`), 'changed on the server');
  return dest;
}

describe('hostile text in what the command line prints', () => {
  it.each([false, true])('inspect --verify escapes ids, paths, field names and extra files (terminal: %s)', async (isTerminal) => {
    await hostileDestination();
    const { code, stdout, stderr } = await cli(['inspect', `dest${TITLE}`, '--verify'], { isTerminal });
    expect(code).toBe(1);
    expectNothingForTheTerminal(stdout, stderr);
    expect(stdout).toContain('archive\\rstatus managed');
    expect(stdout).toContain('reports\\x1b]0;pwned\\x07');
    expect(stdout).toContain('field\\x1b]0;pwned\\x07');
    expect(stdout).toContain('report\\u202etxt.exe.html');
    expect(stdout).toContain('extra\\x1b]52;c;cm0gLXJmIH4=\\x07.txt');
    expect(stdout).toContain('line\\nbreak\\rstatus managed.txt');
  });

  it('scan and scan --verify escape destination ids and issues', async () => {
    await hostileDestination(`ws/site${TITLE}`);
    await fs.mkdir(path.join(dir, 'ws', `broken${RETYPE}`));
    await fs.writeFile(path.join(dir, 'ws', `broken${RETYPE}`, STATE_FILE_NAME), JSON.stringify({ schema_version: `1${CLIPBOARD}` }));
    for (const argv of [
      ['scan', 'ws'],
      ['scan', 'ws', '--verify'],
    ]) {
      const { stdout, stderr } = await cli(argv, { isTerminal: true });
      expectNothingForTheTerminal(stdout, stderr);
      expect(stdout).toContain('site\\x1b]0;pwned\\x07');
      expect(stdout).toContain('broken\\rstatus managed');
    }
  });

  it('compare escapes the recorded and current manifest ids and the destination path', async () => {
    await hostileDestination();
    const { stdout, stderr } = await cli(['compare', `dest${TITLE}`, 'src'], { isTerminal: true });
    expectNothingForTheTerminal(stdout, stderr);
    expect(stdout).toContain('dest\\x1b]0;pwned\\x07');
  });

  it('the forced-replace prompt and plan escape the destination path and the id to type', async () => {
    await hostileDestination();
    const { code, stdout, stderr, asked } = await cli(['replace', `dest${TITLE}`, 'src', '--force', '--destination', `x${CLIPBOARD}`], {
      isTerminal: true,
      answer: 'no',
    });
    expect(code).toBe(0);
    expect(asked).toHaveLength(1);
    expectNothingForTheTerminal(stdout, stderr, ...asked);
    expect(asked[0]).toContain('dest\\x1b]0;pwned\\x07');
    expect(asked[0]).toContain('"x\\x1b]52;c;cm0gLXJmIH4=\\x07"');
    expect(stdout).toContain('line\\nbreak\\rstatus managed.txt');
  });

  it('errors escape the paths and arguments they name', async () => {
    const unknown = await cli([`frob${TITLE}`]);
    const missingSource = await cli(['compare', 'dest', `nowhere${CLIPBOARD}`]);
    const badOption = await cli(['scan', 'ws', `--colour${TITLE}`]);
    expectNothingForTheTerminal(unknown.stderr, missingSource.stderr, badOption.stderr);
    expect(unknown.stderr).toContain('frob\\x1b]0;pwned\\x07');
    expect(missingSource.stderr).toContain('nowhere\\x1b]52;');
  });

  it('leaves JSON output as JSON: the same document, escaped the JSON way', async () => {
    await hostileDestination();
    const { stdout } = await cli(['inspect', `dest${TITLE}`, '--json'], { isTerminal: true });
    const document = JSON.parse(stdout);
    expect(document.state.destination_id).toBe(`archive${RETYPE}`);
    expect(stdout).not.toContain('\\\\x1b');
  });

  it('prints no control character in inspect, whatever the state file holds (property)', async () => {
    const value = fc.string({
      unit: fc.oneof(
        fc.constantFrom('\u001b', '\r', '\n', '\u0007', '\u009b', '\u202e', '\u2069'),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      ),
      minLength: 1,
      maxLength: 12,
    });
    await fc.assert(
      fc.asyncProperty(value, value, value, fc.boolean(), async (id, key, outputPath, isTerminal) => {
        const dest = path.join(dir, 'prop');
        await fs.rm(dest, { recursive: true, force: true });
        await fs.mkdir(dest, { recursive: true });
        const state = {
          schema_version: 1,
          pipeline_id: id,
          destination_id: id,
          published_at: id,
          source: { manifest: { schema_version: 1, id, digest: id, created: id, files: [{ path: outputPath, sha256: id, size: 1 }] } },
          outputs: [{ path: outputPath, kind: 'source', source_path: outputPath, sha256: id, size: 1 }],
          [key]: id,
        };
        await fs.writeFile(path.join(dest, STATE_FILE_NAME), JSON.stringify(state));
        const { stdout, stderr } = await cli(['inspect', 'prop'], { isTerminal });
        expectNothingForTheTerminal(stdout, stderr);
      }),
      { numRuns: 60 },
    );
  });
});
