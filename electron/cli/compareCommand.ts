// `distributor-inspector compare DEST [SOURCE] [--pipeline ID] [--destination ID] [--json]`: what a
// publish of SOURCE into DEST would decide (CONTRACT.md: comparison), and the manifest diff. Asks the
// service through the one door (door.ts): in the command's workspace DEST takes its configured ids,
// source and replace policy, so the decision is the app's. Changes nothing. Exit 0 for publish/skip/replace/skip_newer,
// 1 for conflict and unmanaged, for a skip whose outputs differ from what the state records (drifted),
// and while a staging folder of an interrupted replace is in DEST (a normal replace is refused).

import './startupChunk'; // what every command's start shares, as one chunk of the build
import path from 'node:path';
import type { Comparison } from '../../shared/compare';
import { formatIssuePath } from '../../shared/issues';
import { interruptedStagingOf } from '../../shared/replaceVerdict';
import { CliError, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, type Command } from './command';

import { comparisonText } from './renderComparison';
import { issueLines } from './renderInspection';
import { makeStyle } from './style';
import { printable } from './terminalText';
import type { Issue } from '../../shared/issues';

import { agentOption, remotePaths, valueOf } from './hostPaths';
import { cliPlaces, openLocalDestination, placeOptions, withLocalDoor, type Door } from './door';
import type { ResponseOf } from '../../shared/api';

const READ_FAILURES: ReadonlySet<string> = new Set(['source_missing', 'manifest_unreadable']);
const SUCCESSFUL: ReadonlySet<Comparison['decision']> = new Set(['publish', 'skip', 'replace', 'skip_newer']);

function configuredId(value: string | boolean | undefined, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new CliError(`--${option} needs a non-empty id`);
  return value;
}

type CompareOutcome =
  | {
      ok: true;
      value: Pick<ResponseOf<'compare'>, 'comparison' | 'explanation' | 'drift' | 'diff'> & {
        manifestFile: string;
        sourceIssues: Issue[];
        inspection: NonNullable<ResponseOf<'compare'>['destinationInspection']>;
      };
    }
  | { ok: false; error: { details: { file: string; issues: Issue[] } } };

/** The comparison through a door: this machine's Session or a host's agent (SOURCE read there). */
async function compareThroughDoor(
  door: Door,
  id: string,
  source: string | undefined,
  configured: { pipelineId?: string; destinationId?: string },
  where: string,
): Promise<CompareOutcome> {
  const answer = await door.call('compare', {
    destination: id,
    ...(source !== undefined ? { source } : {}),
    ...(configured.pipelineId ? { pipelineId: configured.pipelineId } : {}),
    ...(configured.destinationId ? { destinationId: configured.destinationId } : {}),
  });
  const details = answer.ok ? undefined : (answer.error.details as { file?: string; issues?: Issue[] } | undefined);
  if (!answer.ok && answer.error.code === 'invalid_source' && details?.file && details.issues)
    return { ok: false, error: { details: { file: details.file, issues: details.issues } } };
  const value = valueOf(answer, 'compare');
  if (!value.destinationInspection || value.manifestFile === undefined)
    throw new CliError(`the service ${where} answered compare without the destination it read: update it to this version`);
  return {
    ok: true,
    value: {
      comparison: value.comparison,
      explanation: value.explanation,
      ...(value.drift ? { drift: value.drift } : {}),
      diff: value.diff,
      manifestFile: value.manifestFile,
      sourceIssues: value.sourceIssues ?? [],
      inspection: value.destinationInspection,
    },
  };
}

export const compareCommand: Command = {
  name: 'compare',
  usage: 'compare DEST [SOURCE] [--pipeline ID] [--destination ID] [--json] [--agent CMD] [--connect-timeout SECONDS] [--workspace W]',
  summary:
    'What publishing SOURCE (a bundle or its manifest.json; default: the source its workspace configures) into DEST would decide, and the file diff',
  options: {
    pipeline: { type: 'string' },
    destination: { type: 'string' },
    json: { type: 'boolean' },
    ...agentOption,
    workspace: placeOptions.workspace,
  },
  positionals: [1, 2],
  async run({ positionals, options }, io) {
    const configured = {
      pipelineId: configuredId(options.pipeline, 'pipeline'),
      destinationId: configuredId(options.destination, 'destination'),
    };
    const remote = remotePaths(positionals, ['DEST', 'SOURCE'].slice(0, positionals.length), options.agent);
    if (remote && options.workspace !== undefined) throw new CliError('compare over ssh opens DEST there on its own: drop --workspace');
    if (remote && remote[1] === undefined) throw new CliError('give SOURCE as ssh://… on the same host (the agent reads it there)');
    const compared = remote
      ? await (async () => {
          const { openHostDestination, withHostDoor } = await import('./hostDoor');
          return withHostDoor(options, io, async (door) => {
            const opened = await openHostDestination(door, remote[0]!, undefined);
            return compareThroughDoor(door, opened.id, remote[1]!.path, configured, `on ${remote[0]!.host}`);
          });
        })()
      : await (async () => {
          const places = cliPlaces(options, io);
          return withLocalDoor(places, async (door) => {
            const opened = await openLocalDestination(door, positionals[0] as string, places, io, 'compare');
            // A SOURCE typed here is read from here, not from the workspace's folder.
            const source = positionals[1] !== undefined ? path.resolve(io.cwd, positionals[1]) : undefined;
            if (source === undefined && opened.source === undefined)
              throw new CliError(`give SOURCE: no workspace configures a source for ${printable(positionals[0] as string)}`);
            return compareThroughDoor(door, opened.id, source, configured, 'here');
          });
        })();
    if (!compared.ok) {
      // An unusable source is the caller's input, not a finding about the destination.
      const { file, issues } = compared.error.details;
      io.stderr(`distributor-inspector compare: the source manifest ${printable(file)} is not usable:\n`);
      for (const issue of issues) {
        // A read failure's message already names the file; a field issue gets the file and the field.
        const where = READ_FAILURES.has(issue.code)
          ? ''
          : `${printable(file)}: ${issue.path.length > 0 ? `${printable(formatIssuePath(issue.path))}: ` : ''}`;
        io.stderr(`  ${where}${printable(issue.message)} (${issue.code})\n`);
      }
      return EXIT_INPUT;
    }
    const { inspection, comparison, explanation, drift, manifestFile, sourceIssues } = compared.value;
    for (const warning of sourceIssues)
      io.stderr(
        `distributor-inspector compare: warning: ${printable(manifestFile)}: ${printable(formatIssuePath(warning.path))}: ${printable(warning.message)}\n`,
      );
    const diff = compared.value.diff ?? null;
    const interruptedStaging = interruptedStagingOf(inspection.issues);

    if (options.json === true) {
      const document = {
        ...comparison,
        explanation,
        drift: drift ?? null,
        diff,
        destination: { path: inspection.path, status: inspection.status, issues: inspection.issues },
        source: { manifest: manifestFile, issues: sourceIssues },
      };
      io.stdout(`${JSON.stringify(document, null, 2)}\n`);
    } else {
      const style = makeStyle(io.isTerminal, io.env);
      // Why a state is invalid, or why a destination is no place to publish (a link, a file).
      const errors = inspection.issues.filter((issue) => issue.severity === 'error');
      const details = errors.length > 0 ? ['', `${style.bold('Issues of the destination')}:`, ...issueLines(errors, style, 10)] : [];
      io.stdout(
        comparisonText(
          {
            comparison,
            explanation,
            drift,
            interruptedStaging,
            diff,
            destinationPath: inspection.path,
            destinationStatus: inspection.status,
            manifestFile,
          },
          style,
          details,
        ),
      );
    }
    const drifted = (drift?.drifted.length ?? 0) > 0;
    return SUCCESSFUL.has(comparison.decision) && !drifted && interruptedStaging === undefined ? EXIT_OK : EXIT_FINDINGS;
  },
};
