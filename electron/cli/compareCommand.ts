// `distributor-inspector compare DEST SOURCE [--pipeline ID] [--destination ID] [--json]`: what a
// publish of SOURCE into DEST would decide (CONTRACT.md: comparison), and the manifest diff.
// Changes nothing. Exit 0 for publish/skip/replace/skip_newer, 1 for conflict and unmanaged.

import path from 'node:path';
import { compare, type Comparison, type DestinationState } from '../../shared/compare';
import { diffManifests } from '../../shared/diffManifests';
import { formatIssuePath } from '../../shared/issues';
import type { DestinationInspection } from '../engine/inspectDestination';
import { readSource } from '../engine/readSource';
import { CliError, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, type Command } from './command';
import { inspectNamedDestination } from './inspectCommand';
import { comparisonText } from './renderComparison';
import { issueLines } from './renderInspection';
import { makeStyle } from './style';
import { printable } from './terminalText';

const READ_FAILURES: ReadonlySet<string> = new Set(['source_missing', 'manifest_unreadable']);
const SUCCESSFUL: ReadonlySet<Comparison['decision']> = new Set(['publish', 'skip', 'replace', 'skip_newer']);

function destinationState(inspection: DestinationInspection): DestinationState {
  if (inspection.status === 'managed' && inspection.state) return { status: 'managed', state: inspection.state };
  if (inspection.status === 'invalid') return { status: 'invalid' };
  return { status: 'none' };
}

function configuredId(value: string | boolean | undefined, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new CliError(`--${option} needs a non-empty id`);
  return value;
}

export const compareCommand: Command = {
  name: 'compare',
  usage: 'compare DEST SOURCE [--pipeline ID] [--destination ID] [--json]',
  summary: 'What publishing SOURCE (a bundle or its manifest.json) into DEST would decide, and the file diff',
  options: { pipeline: { type: 'string' }, destination: { type: 'string' }, json: { type: 'boolean' } },
  positionals: [2, 2],
  async run({ positionals, options }, io) {
    const configured = {
      pipelineId: configuredId(options.pipeline, 'pipeline'),
      destinationId: configuredId(options.destination, 'destination'),
    };
    const source = await readSource(path.resolve(io.cwd, positionals[1] as string));
    if (!source.ok) {
      // An unusable source is the caller's input, not a finding about the destination.
      io.stderr(`distributor-inspector compare: the source manifest ${printable(source.manifestFile)} is not usable:\n`);
      for (const issue of source.issues) {
        // A read failure's message already names the file; a field issue gets the file and the field.
        const where = READ_FAILURES.has(issue.code)
          ? ''
          : `${printable(source.manifestFile)}: ${issue.path.length > 0 ? `${printable(formatIssuePath(issue.path))}: ` : ''}`;
        io.stderr(`  ${where}${printable(issue.message)} (${issue.code})\n`);
      }
      return EXIT_INPUT;
    }
    for (const warning of source.issues)
      io.stderr(
        `distributor-inspector compare: warning: ${printable(source.manifestFile)}: ${printable(formatIssuePath(warning.path))}: ${printable(warning.message)}\n`,
      );

    const inspection = await inspectNamedDestination(io.cwd, positionals[0] as string);
    const comparison = compare({
      destination: destinationState(inspection),
      hasContent: inspection.hasContent,
      source: source.manifest,
      configured,
    });
    const diff = inspection.state ? diffManifests(inspection.state.source.manifest, source.manifest) : null;

    if (options.json === true) {
      const document = {
        ...comparison,
        diff,
        destination: { path: inspection.path, status: inspection.status, issues: inspection.issues },
        source: { manifest: source.manifestFile, issues: source.issues },
      };
      io.stdout(`${JSON.stringify(document, null, 2)}\n`);
    } else {
      const style = makeStyle(io.isTerminal, io.env);
      // Why a state is invalid, or why a destination is no place to publish (a link, a file).
      const errors = inspection.issues.filter((issue) => issue.severity === 'error');
      const details = errors.length > 0 ? ['', `${style.bold('Issues of the destination')}:`, ...issueLines(errors, style, 10)] : [];
      io.stdout(
        comparisonText(
          { comparison, diff, destinationPath: inspection.path, destinationStatus: inspection.status, manifestFile: source.manifestFile },
          style,
          details,
        ),
      );
    }
    return SUCCESSFUL.has(comparison.decision) ? EXIT_OK : EXIT_FINDINGS;
  },
};
