// `distributor-inspector demo [DIR] [--large]`: writes the demo workspace and says how to open it.
// Refuses a non-empty folder that is not a previous demo; never deletes anything else.

import os from 'node:os';
import path from 'node:path';
import { createDemoWorkspace } from '../demo/demo';
import { CliError, EXIT_OK, type Command } from './command';
import { makeStyle, table } from './style';

export const DEFAULT_DEMO_DIR_NAME = 'distributor-inspector-demo';

export const demoCommand: Command = {
  name: 'demo',
  usage: 'demo [DIR] [--large]',
  summary: 'Write a demo workspace (every status, decision and drift) to DIR, or a temp folder',
  options: { large: { type: 'boolean' } },
  positionals: [0, 1],
  async run({ positionals, options }, io) {
    const style = makeStyle(io.isTerminal, io.env);
    const target = positionals[0] !== undefined ? path.resolve(io.cwd, positionals[0]) : path.join(os.tmpdir(), DEFAULT_DEMO_DIR_NAME);
    const started = performance.now();
    const result = await createDemoWorkspace(target, { large: options.large === true });
    if (!result.ok) throw new CliError(result.message);
    const { summary } = result;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const lines = [
      `${style.bold(summary.replacedPrevious ? 'Regenerated the demo workspace' : 'Wrote a demo workspace')} in ${summary.dir} (${summary.destinationCount} destinations, ${seconds} s)`,
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
      `  ${style.cyan(`npx distributor-inspector serve ${JSON.stringify(summary.workspaceFile)}`)}`,
      `  ${style.cyan(`npx distributor-inspector scan ${JSON.stringify(summary.workspaceFile)} --verify`)}`,
      '',
    );
    io.stdout(lines.join('\n'));
    return EXIT_OK;
  },
};
