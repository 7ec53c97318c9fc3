import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { applyPatch } from 'diff';
import { beforeEach, describe, expect, it } from 'vitest';
import { markdownToHtml } from '../replace/markdownToHtml';
import { sha256, snapshotTree, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { runCliCaptured } from '../testing/cliCapture';

let dir: string;
beforeEach(async () => {
  dir = await tempDirForTest('diff-command-');
});

const cli = (argv: string[]) => runCliCaptured(argv, { cwd: dir, env: { NO_COLOR: '1' } });

const NOTES_BEFORE = 'line one\nline two\nline three\n';
const NOTES_AFTER = 'line one\nline 2\nline three\n';

/** A destination holding `notes.txt` as published from `old`, and a source `src` whose notes.txt is `now`. */
async function destinationAndSource(onDisk: string, now: string, extra: Record<string, string> = {}) {
  const manifest = await writeBundle(path.join(dir, 'old'), { 'notes.txt': onDisk });
  await writeManagedDestination(path.join(dir, 'dest'), { manifest, outputs: { 'notes.txt': onDisk }, extras: extra });
  await writeBundle(path.join(dir, 'src'), { 'notes.txt': now }, { created: '2026-06-05T09:00:00Z' });
}

describe('distributor-inspector diff', () => {
  it('prints a unified diff of the file on disk against what publishing the source writes, and exits 1', async () => {
    await destinationAndSource(NOTES_BEFORE, NOTES_AFTER);
    const before = await snapshotTree(dir);
    const { code, stdout } = await cli(['diff', 'dest', 'notes.txt', 'src', '--publish']);
    expect(code).toBe(1);
    expect(stdout).toContain('diff a/notes.txt b/notes.txt');
    expect(stdout).toContain('--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n line one\n-line two\n+line 2\n line three\n');
    expect(await snapshotTree(dir)).toBe(before);
  });

  it('exits 0 and says so when the two are the same', async () => {
    await destinationAndSource(NOTES_BEFORE, NOTES_BEFORE);
    const { code, stdout } = await cli(['diff', 'dest', 'notes.txt', 'src', '--publish']);
    expect(code).toBe(0);
    expect(stdout).toContain('The two are the same, byte for byte.');
  });

  it('answers --json with the two sides, the hunks and a unified diff that applies', async () => {
    await destinationAndSource(NOTES_BEFORE, NOTES_AFTER);
    const { code, stdout } = await cli(['diff', 'dest', 'notes.txt', 'src', '--publish', '--json']);
    expect(code).toBe(1);
    const document = JSON.parse(stdout);
    expect(document).toMatchObject({ path: 'notes.txt', against: 'publish', verdict: 'differs', firstDifferingOffset: 14 });
    expect(document.old.side).toMatchObject({ presence: 'file', text: NOTES_BEFORE });
    expect(document.hunks).toHaveLength(1);
    expect(document.hunks[0]).toMatchObject({ oldStart: 1, oldCount: 3, newStart: 1, newCount: 3 });
    expect(applyPatch(NOTES_BEFORE, document.unified)).toBe(NOTES_AFTER);
  });

  it('diffs a file the state does not record against the publication, and says when nothing publishes it', async () => {
    await destinationAndSource(NOTES_BEFORE, NOTES_BEFORE, { 'by-hand.txt': 'typed on the server\n' });
    const { code, stdout } = await cli(['diff', 'dest', 'by-hand.txt', 'src']);
    expect(code).toBe(1);
    expect(stdout).toContain('--- a/by-hand.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-typed on the server\n');
    expect(stdout).toContain('the source publishes no output "by-hand.txt"');
  });

  it('refuses a path that climbs out of the destination, and one that is absolute, with exit 2', async () => {
    await destinationAndSource(NOTES_BEFORE, NOTES_AFTER);
    await fs.writeFile(path.join(dir, 'secret.txt'), 'do not show\n');
    for (const bad of ['../secret.txt', path.join(dir, 'secret.txt'), 'a//b']) {
      const { code, stderr, stdout } = await cli(['diff', 'dest', bad, 'src']);
      expect(code).toBe(2);
      expect(stderr).toContain('is not a path inside the destination');
      expect(stdout + stderr).not.toContain('do not show');
    }
  });

  it('never follows a link in a parent folder out of the destination', async () => {
    await destinationAndSource(NOTES_BEFORE, NOTES_AFTER);
    await fs.mkdir(path.join(dir, 'outside'));
    await fs.writeFile(path.join(dir, 'outside', 'notes.txt'), 'secret outside\n');
    await fs.symlink(path.join(dir, 'outside'), path.join(dir, 'dest', 'linked'));
    const { code, stdout, stderr } = await cli(['diff', 'dest', 'linked/notes.txt', 'src', '--publish']);
    // Only the one line that says it runs without a workspace.
    expect(stderr).toMatch(/^distributor-inspector diff: no workspace [^\n]*\n$/);
    expect(code).toBe(1);
    expect(stdout).toContain('reached through the symbolic link "linked"; not followed');
    expect(stdout).not.toContain('secret outside');
  });

  it('reads nothing through a destination that is itself a symbolic link', async () => {
    await destinationAndSource(NOTES_BEFORE, NOTES_AFTER);
    await fs.symlink(path.join(dir, 'dest'), path.join(dir, 'linked-dest'));
    const { code, stdout } = await cli(['diff', 'linked-dest', 'notes.txt', 'src', '--publish']);
    expect(code).toBe(1);
    expect(stdout).toContain('inside a destination that is a symbolic link');
    expect(stdout).not.toContain('line two');
  });

  it('names a link or a FIFO at the path without opening it', async () => {
    await destinationAndSource(NOTES_BEFORE, NOTES_AFTER);
    await fs.rm(path.join(dir, 'dest', 'notes.txt'));
    execFileSync('mkfifo', [path.join(dir, 'dest', 'notes.txt')]);
    const fifo = await cli(['diff', 'dest', 'notes.txt', 'src', '--publish']);
    expect(fifo.code).toBe(1);
    expect(fifo.stdout).toContain('No content to diff: on disk is not a regular file: a FIFO (named pipe)');
    await fs.rm(path.join(dir, 'dest', 'notes.txt'));
    await fs.symlink('/etc/passwd', path.join(dir, 'dest', 'notes.txt'));
    const link = await cli(['diff', 'dest', 'notes.txt', 'src', '--publish']);
    expect(link.stdout).toContain('a symbolic link');
    expect(link.stdout).not.toContain('root:');
  });

  it('escapes control characters of a diffed line instead of sending them to the terminal', async () => {
    await destinationAndSource('title\n', 'title \u001b]0;owned\u0007\u202e\n');
    const { code, stdout } = await cli(['diff', 'dest', 'notes.txt', 'src', '--publish']);
    expect(code).toBe(1);
    expect(stdout).toContain('+title \\x1b]0;owned\\x07\\u202e');
    expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
  });

  it('shows sizes, hashes and the first differing offset for binary files', async () => {
    await destinationAndSource('PNG\u0000\u0001\u0002', 'PNG\u0000\u0001\u0003');
    const { code, stdout } = await cli(['diff', 'dest', 'notes.txt', 'src', '--publish']);
    expect(code).toBe(1);
    expect(stdout).toContain('Binary files a/notes.txt and b/notes.txt differ');
    expect(stdout).toContain('first differing byte at offset 5 (0x5)');
    expect(stdout).toMatch(/a: on disk: 6 bytes, sha256:[0-9a-f]{64}, binary/);
  });

  it('streams a file over the 2 MiB limit: sizes, hashes and the first differing offset, no line diff', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    await destinationAndSource(big, `${big.slice(0, 2_500_000)}y${big.slice(2_500_001)}`);
    const { code, stdout } = await cli(['diff', 'dest', 'notes.txt', 'src', '--publish', '--json']);
    expect(code).toBe(1);
    const document = JSON.parse(stdout);
    expect(document.firstDifferingOffset).toBe(2_500_000);
    expect(document.old.side).toMatchObject({ presence: 'file', sizeBytes: big.length, noText: 'too_large' });
    expect(document.old.side.text).toBeUndefined();
    expect(document.hunks).toBeUndefined();
  });

  it('diffs a missing output as a file that would be created', async () => {
    await destinationAndSource(NOTES_BEFORE, NOTES_AFTER);
    await fs.rm(path.join(dir, 'dest', 'notes.txt'));
    const { code, stdout } = await cli(['diff', 'dest', 'notes.txt', 'src', '--publish']);
    expect(code).toBe(1);
    expect(stdout).toContain('--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1,3 @@\n+line one\n');
  });

  it('diffs a hand-edited output against its recorded bytes, proven from the source file that hashes to them', async () => {
    await destinationAndSource(NOTES_BEFORE, NOTES_AFTER);
    await fs.writeFile(path.join(dir, 'dest', 'notes.txt'), NOTES_BEFORE.replace('line two', 'line TWO'));
    const { code, stdout } = await cli(['diff', 'dest', 'notes.txt', 'old']);
    expect(code).toBe(1);
    expect(stdout).toContain(`the source file ${path.join(dir, 'old', 'notes.txt')}, whose sha256 equals the recorded one`);
    expect(stdout).toContain('verify: hash mismatch');
    expect(stdout).toContain('@@ -1,3 +1,3 @@\n line one\n-line two\n+line TWO\n line three\n');
  });

  it('says the expected bytes are not available when the source changed since, and shows what is on disk', async () => {
    await destinationAndSource(NOTES_BEFORE, NOTES_AFTER);
    await fs.writeFile(path.join(dir, 'dest', 'notes.txt'), 'edited by hand\n');
    const { code, stdout } = await cli(['diff', 'dest', 'notes.txt', 'src', '--json']);
    expect(code).toBe(1);
    const document = JSON.parse(stdout);
    expect(document.old.side).toMatchObject({ presence: 'unavailable', reason: { code: 'source_changed' } });
    expect(document.old.side.reason.message).toMatch(/^the expected bytes are not available for notes\.txt: .*the source changed since$/);
    expect(document.new.side).toMatchObject({ presence: 'file', text: 'edited by hand\n' });
    expect(document.hunks).toBeUndefined();
  });

  it('regenerates a generated output with the app renderer and diffs against it only when it hashes to the record', async () => {
    const markdown = '# Report\n\nAll good.\n';
    const html = markdownToHtml(markdown, 'report');
    const manifest = await writeBundle(path.join(dir, 'bundle'), { 'report.md': markdown });
    await writeManagedDestination(path.join(dir, 'dest'), { manifest, outputs: { 'report.html': html } });
    const stateFile = path.join(dir, 'dest', '.distributor.json');
    const state = JSON.parse(await fs.readFile(stateFile, 'utf8'));
    Object.assign(state.outputs[0], { kind: 'generated', transform: 'markdown_to_html', source_path: 'report.md' });
    await fs.writeFile(stateFile, JSON.stringify(state));
    await fs.writeFile(path.join(dir, 'dest', 'report.html'), html.replace('All good.', 'All <b>bad</b>.'));
    const proven = await cli(['diff', 'dest', 'report.html', 'bundle']);
    expect(proven.code).toBe(1);
    expect(proven.stdout).toContain('regenerated from');
    expect(proven.stdout).toContain('-<p>All good.</p>\n+<p>All <b>bad</b>.</p>');

    // Recorded as made by another renderer: the regenerated page does not hash to the record.
    state.outputs[0].sha256 = sha256(`${html}<!-- another renderer -->`);
    await fs.writeFile(stateFile, JSON.stringify(state));
    const other = await cli(['diff', 'dest', 'report.html', 'bundle']);
    expect(other.code).toBe(1);
    expect(other.stdout).toContain('the output was generated by another renderer');
    expect(other.stdout).toContain('What is on disk');
  });

  it('says the expected bytes are not available without a source, shows what is on disk, and exits 1 for a drifted output', async () => {
    await destinationAndSource(NOTES_BEFORE, NOTES_BEFORE);
    await fs.writeFile(path.join(dir, 'dest', 'notes.txt'), 'edited by hand\n');
    const { code, stdout } = await cli(['diff', 'dest', 'notes.txt']);
    expect(code).toBe(1);
    expect(stdout).toContain('verify: size mismatch');
    expect(stdout).toContain('No line diff: the expected bytes are not available: no source bundle was given to prove them from.');
    expect(stdout).toContain('What is on disk (15 bytes):\n  edited by hand\n');
  });

  it('exits 0 for a recorded output that matches its record, also without a source', async () => {
    await destinationAndSource(NOTES_BEFORE, NOTES_BEFORE);
    const { code, stdout } = await cli(['diff', 'dest', 'notes.txt']);
    expect(code).toBe(0);
    expect(stdout).toContain('verify: ok');
  });

  it('needs a source for a path the state does not record, and names a bad source file and field', async () => {
    await destinationAndSource(NOTES_BEFORE, NOTES_BEFORE, { 'by-hand.txt': 'x\n' });
    const noSource = await cli(['diff', 'dest', 'by-hand.txt']);
    expect(noSource.code).toBe(2);
    expect(noSource.stderr).toContain('no source bundle to compare "by-hand.txt" with');
    await fs.writeFile(path.join(dir, 'src', 'manifest.json'), '{"schema_version": 1}');
    const badSource = await cli(['diff', 'dest', 'notes.txt', 'src', '--publish']);
    expect(badSource.code).toBe(2);
    expect(badSource.stderr).toContain(path.join(dir, 'src', 'manifest.json'));
  });

  it('shows as many lines of context as --context asks, and refuses a count that is not one', async () => {
    const many = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    await destinationAndSource(many, many.replace('line 10\n', 'ten\n'));
    const none = await cli(['diff', 'dest', 'notes.txt', 'src', '--publish', '--context', '0']);
    expect(none.stdout).toContain('@@ -10 +10 @@\n-line 10\n+ten\n');
    const wide = await cli(['diff', 'dest', 'notes.txt', 'src', '--publish', '--context', '5', '--json']);
    expect(JSON.parse(wide.stdout).hunks[0]).toMatchObject({ oldStart: 5, oldCount: 11 });
    const bad = await cli(['diff', 'dest', 'notes.txt', 'src', '--context', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--context needs a whole number of lines');
  });

  it('exits 2 with its usage when an argument is missing', async () => {
    const { code, stderr } = await cli(['diff', 'dest']);
    expect(code).toBe(2);
    expect(stderr).toContain('Usage: distributor-inspector diff DEST OUTPUT_PATH [SOURCE] [--publish] [--context N] [--json]');
  });
});
