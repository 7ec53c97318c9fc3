// `distributor-inspector history [DEST] [--workspace W | --history FILE] [--json]`: the journal of
// applies (issue 13 §4), newest last, optionally of one destination (its path, or its id in the
// workspace). Asks the service through the one door (door.ts): the journal of the command's workspace
// (the app's applies and the CLI's), of the workspace that holds DEST, else the user's own. Exit 1
// when the journal holds lines it cannot read (a torn last record, say), 2 when the journal itself
// cannot be read.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import path from 'node:path';
import type { HistoryRecord } from '../../shared/historySchema';
import { CliError, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, type Command } from './command';
import { cliPlaces, noWorkspaceNote, openLocalDestination, openWorkspaceAt, placeOptions, withLocalDoor, type Door } from './door';
import { makeStyle, table, type Style } from './style';
import { printable } from './terminalText';

function outcomeCell(outcome: HistoryRecord['result']['outcome'], style: Style): string {
  if (outcome === 'applied') return style.green(outcome);
  if (outcome === 'failed') return style.red(outcome);
  return style.yellow(outcome);
}

/** `sha256:0123456789ab`: enough of a digest to tell two publications of one id apart. */
const shortDigest = (digest: string) => digest.slice(0, 'sha256:'.length + 12);

function sourceCell(record: HistoryRecord): string {
  const { sourceBefore: before, sourceAfter: after } = record;
  if (!before && !after) return '-';
  if (before && after && before.id === after.id)
    return before.digest === after.digest
      ? printable(after.id)
      : `${printable(after.id)} ${shortDigest(before.digest)} → ${shortDigest(after.digest)}`;
  return `${printable(before?.id ?? '(none)')} → ${printable(after?.id ?? '(unchanged)')}`;
}

/** The most records one page may hold (the API's bound); the command prints every page. */
const PAGE_RECORDS = 1000;

/**
 * Every record of the journal, oldest first: the service answers a page at a time (newest first), so
 * the older pages are asked for until there is none. The first page's read covered the whole journal
 * (or its newest 64 MiB), so its issues and `truncated` are the journal's; later pages only repeat them.
 */
async function wholeHistory(door: Door, request: { destination?: string }) {
  const first = await door.call('history', { ...request, limit: PAGE_RECORDS });
  if (!first.ok) return first;
  const pages = [first.value.records];
  for (let cursor = first.value.nextCursor; cursor !== undefined;) {
    const older = await door.call('history', { ...request, limit: PAGE_RECORDS, cursor });
    if (!older.ok) return older;
    pages.push(older.value.records);
    cursor = older.value.nextCursor;
  }
  const { nextCursor: _whole, ...journal } = first.value;
  return { ok: true as const, value: { ...journal, records: pages.reverse().flat() } };
}

export const historyCommand: Command = {
  name: 'history',
  usage: 'history [DEST] [--workspace W | --history FILE] [--json]',
  summary: 'Every replace applied, refused or failed, from the history journal (of a workspace with --workspace)',
  options: { json: { type: 'boolean' }, workspace: placeOptions.workspace, history: placeOptions.history },
  positionals: [0, 1],
  async run({ positionals, options }, io) {
    const places = cliPlaces(options, io);
    const filter = positionals[0];
    const { answer: read, filtered } = await withLocalDoor(places, async (door) => {
      if (filter !== undefined && places.storage.historyFile === undefined) {
        // The journal of the workspace that holds DEST; a DEST in none (gone, say) is looked for by path below.
        const opened = await openLocalDestination(door, filter, places, io, 'history').catch(() => undefined);
        if (opened) return { answer: await wholeHistory(door, { destination: opened.id }), filtered: true };
      }
      if (places.workspace) await openWorkspaceAt(door, places.workspace);
      else if (places.storage.historyFile === undefined) noWorkspaceNote('history', io);
      return { answer: await wholeHistory(door, {}), filtered: false };
    });
    if (!read.ok) throw new CliError(printable(read.error.message), EXIT_INPUT);
    const { file, records, issues, truncated } = read.value;
    const wanted = filter === undefined ? undefined : path.resolve(io.cwd, filter);
    const shown = records.filter(
      (record) => filtered || filter === undefined || record.destination.id === filter || path.resolve(record.destination.path) === wanted,
    );
    for (const issue of issues)
      io.stderr(`distributor-inspector history: ${printable(file)}: line ${issue.line}: ${printable(issue.message)}\n`);
    if (truncated) io.stderr(`distributor-inspector history: ${printable(file)}: only its newest 64 MiB were read\n`);
    if (options.json === true) {
      io.stdout(`${JSON.stringify({ file, records: shown, issues, truncated }, null, 2)}\n`);
    } else if (shown.length === 0) {
      io.stdout(`No applies recorded${filter === undefined ? '' : ` for ${printable(filter)}`} in ${printable(file)}.\n`);
    } else {
      const style = makeStyle(io.isTerminal, io.env);
      const header = ['TIME', 'ACTION', 'DESTINATION', 'RESULT', 'DELETE', 'WRITE', 'KEEP', 'SOURCE', 'BY'].map((cell) => style.bold(cell));
      const rows = shown.map((record) => [
        printable(record.at),
        printable(record.action),
        printable(record.destination.id ?? record.destination.path),
        `${outcomeCell(record.result.outcome, style)}${record.result.code ? style.dim(` (${printable(record.result.code)})`) : ''}`,
        String(record.counts.delete),
        String(record.counts.write),
        record.counts.keep === undefined ? '-' : String(record.counts.keep),
        sourceCell(record),
        `${printable(record.user)}@${printable(record.host)} (${record.transport})`,
      ]);
      io.stdout(
        `${table([header, ...rows])}\n${style.dim(`${shown.length} record${shown.length === 1 ? '' : 's'} in ${printable(file)}`)}\n`,
      );
    }
    return issues.length > 0 ? EXIT_FINDINGS : EXIT_OK;
  },
};
