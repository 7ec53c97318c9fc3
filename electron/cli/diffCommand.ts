// `distributor-inspector diff DEST OUTPUT_PATH [SOURCE] [--publish] [--context N] [--json]`: how one file of a
// destination differs, as a unified diff (like `git diff --no-index`). A recorded output is diffed
// against the bytes its state records (proven from SOURCE); a path the state does not record, or any
// path with --publish, against what publishing SOURCE now would write. Asks the service through the
// one door (door.ts): in the command's workspace SOURCE defaults to the one it configures for DEST, as
// in the app. Changes nothing. Exit 0 the same, 1 they differ, 2 an error.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import path from 'node:path';
import { formatIssuePath, type Issue } from '../../shared/issues';
import { cliPlaces, openLocalDestination, placeOptions, withLocalDoor } from './door';
import { CliError, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, type Command } from './command';
import { contentDiffJson, contentDiffText } from './renderContentDiff';
import { makeStyle } from './style';
import { printable } from './terminalText';

/** `--context N`: lines of context around each change (git's -U), 0 to 100000. */
function contextLines(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,6}$/.test(value))
    throw new CliError(`--context needs a whole number of lines (0 or more), not ${printable(String(value))}`);
  return Number(value);
}

export const diffCommand: Command = {
  name: 'diff',
  usage: 'diff DEST OUTPUT_PATH [SOURCE] [--publish] [--context N] [--json] [--workspace W]',
  summary:
    'How one output differs: on disk against its recorded bytes (proven from SOURCE), or with --publish against what publishing SOURCE writes',
  options: { publish: { type: 'boolean' }, context: { type: 'string' }, json: { type: 'boolean' }, workspace: placeOptions.workspace },
  positionals: [2, 3],
  async run({ positionals, options }, io) {
    const [destination, outputPath, source] = positionals as [string, string, string | undefined];
    const context = contextLines(options.context);
    const places = cliPlaces(options, io);
    const diffed = await withLocalDoor(places, async (door) => {
      const opened = await openLocalDestination(door, destination, places, io, 'diff');
      return door.call('contentDiff', {
        destination: opened.id,
        path: outputPath,
        ...(options.publish === true ? { against: 'publish' as const } : {}),
        // A SOURCE typed here is read from here, not from the workspace's folder.
        ...(source !== undefined ? { source: path.resolve(io.cwd, source) } : {}),
      });
    });
    if (!diffed.ok) {
      const issues = ((diffed.error.details as { issues?: Issue[] } | undefined)?.issues ?? []) as Issue[];
      const lines = [printable(diffed.error.message)];
      for (const issue of issues.slice(1, 10))
        lines.push(`  ${issue.path.length > 0 ? `${printable(formatIssuePath(issue.path))}: ` : ''}${printable(issue.message)}`);
      throw new CliError(lines.join('\n'), EXIT_INPUT);
    }
    const diff = diffed.value;
    if (options.json === true) io.stdout(contentDiffJson(diff, context));
    else io.stdout(contentDiffText(diff, makeStyle(io.isTerminal, io.env), context));
    if (diff.verdict === 'unknown') {
      const side = [diff.old, diff.new].find((entry) => entry.side.presence === 'unavailable')?.side;
      io.stderr(
        `distributor-inspector diff: cannot tell whether they differ: ${printable(side?.presence === 'unavailable' ? side.reason.message : 'a side cannot be read')}\n`,
      );
      return EXIT_INPUT;
    }
    return diff.verdict === 'same' ? EXIT_OK : EXIT_FINDINGS;
  },
};
