// `distributor-inspector demo [DIR] [--large] [--reset] [--json]`: writes the demo workspace and says
// how to open it; an earlier demo there is reopened as it is (the user's work kept), and made afresh
// only with --reset. Without DIR, a folder private to the user (their cache folder). Refuses a folder
// another user could write, and a non-empty folder that is not a previous demo; never deletes a path
// the demo or the app did not write there.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import path from 'node:path';
import { createDemoWorkspace, type DemoSummary } from '../demo/demo';
import { defaultDemoDir } from '../demo/demoFolder';
import { CliError, EXIT_OK, type Command } from './command';
import { makeStyle, table } from './style';
import { printable } from './terminalText';
import { installedCommand } from '../service/installedCommand';
import { shellQuote } from '../../shared/shellQuote';

const counted = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** What a reset removed, in words. */
function removedLine(removed: NonNullable<DemoSummary['removed']>): string {
  const history = removed.historyRecords === undefined ? 'its history' : `${counted(removed.historyRecords, 'history record')}`;
  return `Removed the earlier demo: ${counted(removed.backups, 'backup')}, ${history}, and ${counted(removed.addedInDestinations, 'path')} added to its destinations.`;
}

export const demoCommand: Command = {
  name: 'demo',
  usage: 'demo [DIR] [--large] [--reset] [--json]',
  summary: 'Write a demo workspace (every status, decision and drift) to DIR, or to your cache folder; reopen an earlier one as it is',
  options: { large: { type: 'boolean' }, reset: { type: 'boolean' }, json: { type: 'boolean' } },
  positionals: [0, 1],
  async run({ positionals, options }, io) {
    const style = makeStyle(io.isTerminal, io.env);
    const target = positionals[0] !== undefined ? path.resolve(io.cwd, positionals[0]) : defaultDemoDir(io.env);
    const started = performance.now();
    const result = await createDemoWorkspace(target, { large: options.large === true, reset: options.reset === true });
    if (!result.ok) throw new CliError(printable(result.error));
    const summary = result.value;
    if (options.json === true) {
      // `command`: how to run this CLI here (never npx), for scripts that print hints (scripts/start.mjs).
      io.stdout(`${JSON.stringify({ ...summary, command: installedCommand(io.env) }, null, 2)}\n`);
      return EXIT_OK;
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const command = printable(installedCommand(io.env));
    const done = summary.reopened
      ? 'Reopened the demo workspace, as you left it,'
      : summary.replacedPrevious
        ? 'Made the demo workspace afresh'
        : 'Wrote a demo workspace';
    const lines = [
      `${style.bold(done)} in ${printable(summary.dir)} (${summary.destinationCount} destinations, ${seconds} s)`,
      ...(summary.removed ? [style.dim(removedLine(summary.removed))] : []),
      ...(summary.reopened
        ? [
            style.dim(
              `Its backups, history and changes are kept; \`${command} demo --reset${summary.large ? ' --large' : ''}\` makes it afresh.`,
            ),
          ]
        : []),
      ...(summary.reopened && options.large === true && !summary.large
        ? [style.yellow('It is the small demo (made without --large): add --reset to make the large one in its place.')]
        : []),
      '',
      `Sources: ${summary.sources.join(', ')}`,
      '',
      table(summary.cases.map((demoCase) => [`  destinations/${demoCase.name}`, style.dim(demoCase.shows)])),
    ];
    if (summary.destinationCount > summary.cases.length) {
      lines.push(`  destinations/site-00001 … (${summary.destinationCount - summary.cases.length} more, for trying the list at scale)`);
    }
    lines.push(
      '',
      'Open it:',
      `  ${style.cyan(`${command} serve ${printable(shellQuote(summary.workspaceFile))}`)}`,
      `  ${style.cyan(`${command} scan ${printable(shellQuote(summary.workspaceFile))} --verify`)}`,
      '',
    );
    io.stdout(lines.join('\n'));
    return EXIT_OK;
  },
};
