// `distributor-inspector inspect DEST [--verify] [--json]`: the status of one destination and every issue of
// its state file. A thin shell over the service's read (service/destinationRead.ts); exit 1 on findings, 2 on input errors.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import path from 'node:path';
import { hasErrors } from '../../shared/issues';
import { inspectDestination, type DestinationInspection } from '../service/destinationRead';
import { CliError, EXIT_FINDINGS, EXIT_OK, type Command } from './command';
import { inspectionJson, inspectionText } from './renderInspection';
import { makeStyle } from './style';
import { printable } from './terminalText';
import { createProgressBar } from './progressBar';
import { verifyLines } from './verifyText';
import type { VerifyReport } from '../../shared/verifyReport';
import { sameStateAndListing } from '../../shared/verifyFreshness';
import type { DestinationRead } from '../../shared/api';
import { formatSshUrl, type SshTarget } from '../../shared/sshUrl';
import type { HostConnector } from '../service/hostLink';
import type { CliIo } from './command';
import { agentOption, remotePaths, valueOf, type CommandOptions } from './hostPaths';

/** Reads a destination the user named; a file system error is an input error naming the path. */
export async function inspectNamedDestination(cwd: string, destination: string, includeText = false): Promise<DestinationInspection> {
  const dir = path.resolve(cwd, destination);
  // No digests: inspect prints neither the state's sha256 nor the listing digest (and skips loading node:crypto).
  return inspectDestination(dir, { includeText, digests: false }).catch((cause: unknown) => {
    throw destinationReadError(dir, cause);
  });
}

/** A file system error reading a destination, as an input error naming the path; anything else as it was. */
export function destinationReadError(dir: string, cause: unknown): unknown {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') return cause;
  const why =
    code === 'ENOTDIR'
      ? 'a parent of it is not a directory'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied (the folder cannot be listed by this user)'
        : printable((cause as Error).message);
  return new CliError(`cannot read destination ${printable(dir)}: ${why}`);
}

/** Findings are an invalid state, or any error (a destination that is a link or a file). */
export function inspectionExitCode(inspection: DestinationInspection): number {
  return inspection.status === 'invalid' || hasErrors(inspection.issues) ? EXIT_FINDINGS : EXIT_OK;
}

export const inspectCommand: Command = {
  name: 'inspect',
  usage: 'inspect DEST [--verify] [--json] [--agent CMD] [--connect-timeout SECONDS]',
  summary: 'Status of one destination (empty, unmanaged, managed, invalid) and every issue of its state file',
  options: { json: { type: 'boolean' }, verify: { type: 'boolean' }, ...agentOption },
  positionals: [1, 1],
  async run({ positionals, options }, io) {
    const json = options.json === true;
    const remote = remotePaths([positionals[0] as string], ['DEST'], options.agent);
    if (remote) {
      const { inspection, verify } = await inspectRemote(remote[0]!, options, options.verify === true, io);
      return report(inspection, verify, options.verify === true, json, io);
    }
    const inspection = await inspectNamedDestination(io.cwd, positionals[0] as string, json);
    // --verify: a managed destination's outputs checked against the state (issue 3); nothing to verify otherwise.
    let verify;
    if (options.verify === true && inspection.state) {
      const bar = createProgressBar(io.stderr, Boolean(process.stderr.isTTY) && io.env.TERM !== 'dumb');
      // Loaded only for --verify: the hash pool and its worker threads are no part of a plain inspect's start.
      const { verifyDestination } = await import('./verifyLoader');
      verify = await verifyDestination(inspection.path, inspection.state, { onProgress: (step) => bar.update('verify', step) }).finally(
        () => bar.clear(),
      );
    }
    return report(inspection, verify, options.verify === true, json, io);
  },
};

function report(
  inspection: DestinationInspection,
  verify: VerifyReport | undefined,
  askedVerify: boolean,
  json: boolean,
  io: CliIo,
): number {
  const style = makeStyle(io.isTerminal, io.env);
  if (json) io.stdout(inspectionJson(inspection, verify ? { verify } : {}));
  else
    io.stdout(
      inspectionText(inspection, style) +
        (verify
          ? `\n${verifyLines(verify, style).join('\n')}\n`
          : askedVerify
            ? `\n${style.dim('verify: nothing to verify (the destination is not managed)')}\n`
            : ''),
    );
  return verify?.status === 'drifted' ? EXIT_FINDINGS : inspectionExitCode(inspection);
}

/**
 * The same inspection on an agent: the folder opened there as a one-destination workspace, inspected
 * and verified through the API. With --verify what is printed is of the read the report was taken
 * from: a destination published again between the inspect and the verify (the verify's row has another
 * fingerprint) is inspected once more, and printed only if that is the state the report checked.
 */
export async function inspectRemote(
  target: SshTarget,
  options: CommandOptions,
  verify: boolean,
  io: CliIo,
  connectHost?: HostConnector,
): Promise<{ inspection: DestinationInspection; verify?: VerifyReport }> {
  // Loaded here only: the Session, ssh and the agent connection are no part of a local inspect's start.
  const { openHostDestination, withHostDoor } = await import('./hostDoor');
  return withHostDoor(
    options,
    io,
    async (door) => {
      const { id } = await openHostDestination(door, target, undefined);
      const inspect = async () => valueOf(await door.call('inspectDestination', { destination: id }), 'inspectDestination').inspection;
      const inspection = await inspect();
      if (!verify || inspection.status !== 'managed') return { inspection };
      const bar = createProgressBar(io.stderr, Boolean(process.stderr.isTTY) && io.env.TERM !== 'dumb');
      let read: DestinationRead | undefined;
      try {
        valueOf(
          await door.job(
            'verify',
            { destinations: [id] },
            { onItem: (item) => (read = item), onProgress: (step) => bar.update('verify', step) },
          ),
          'verify',
        );
      } finally {
        bar.clear();
      }
      if (!read) return { inspection };
      const { entry, verify: verified } = read;
      const shown = sameStateAndListing(inspection, entry.inspection) ? inspection : await inspect();
      if (!sameStateAndListing(shown, entry.inspection))
        throw new CliError(`${printable(formatSshUrl(target))} changed while it was inspected and verified: run the command again`);
      return { inspection: shown, ...(verified ? { verify: verified.report } : {}) };
    },
    connectHost ? { connectHost } : {},
  );
}
