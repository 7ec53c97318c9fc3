// `distributor-inspector demo [DIR] [--large] [--json]`: writes the demo workspace and says how to open it.
// Without DIR, a folder private to the user (their cache folder). Refuses a folder another user could
// write, and a non-empty folder that is not a previous demo; never deletes a path the demo did not write.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import path from 'node:path';
import { createDemoWorkspace } from '../demo/demo';
import { defaultDemoDir } from '../demo/demoFolder';
import { CliError, EXIT_OK, type Command } from './command';
import { makeStyle, table } from './style';
import { printable } from './terminalText';

export const demoCommand: Command = {
  name: 'demo',
  usage: 'demo [DIR] [--large] [--json]',
  summary: 'Write a demo workspace (every status, decision and drift) to DIR, or to your cache folder',
  options: { large: { type: 'boolean' }, json: { type: 'boolean' } },
  positionals: [0, 1],
  async run({ positionals, options }, io) {
    const style = makeStyle(io.isTerminal, io.env);
    const target = positionals[0] !== undefined ? path.resolve(io.cwd, positionals[0]) : defaultDemoDir(io.env);
    const started = performance.now();
    const result = await createDemoWorkspace(target, { large: options.large === true });
    if (!result.ok) throw new CliError(printable(result.error));
    const summary = result.value;
    if (options.json === true) {
      io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
      return EXIT_OK;
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const lines = [
      `${style.bold(summary.replacedPrevious ? 'Regenerated the demo workspace' : 'Wrote a demo workspace')} in ${printable(summary.dir)} (${summary.destinationCount} destinations, ${seconds} s)`,
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
      `  ${style.cyan(`npx distributor-inspector serve ${printable(JSON.stringify(summary.workspaceFile))}`)}`,
      `  ${style.cyan(`npx distributor-inspector scan ${printable(JSON.stringify(summary.workspaceFile))} --verify`)}`,
      '',
    );
    io.stdout(lines.join('\n'));
    return EXIT_OK;
  },
};
