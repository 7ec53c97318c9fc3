// The large demo: thousands of small destinations for trying the list, filters and scan at scale.
// Deterministic (the same bytes every run) and fast: shared bytes, bounded parallel writes.

import { STATE_FILE_NAME } from '../../shared/stateSchema';
import type { WorkspaceEntry } from '../../shared/workspaceSchema';
import { handbookSources, publish } from './demoBundles';
import { stateText } from './demoCases';
import type { DemoDisk } from './demoDisk';

export const LARGE_DESTINATION_COUNT = 10_000;
const PARALLEL_WRITES = 64;

/** The demo's status-page source, so that most large destinations compare as skip. */
const statusPage = handbookSources().status;

type Kind = 'managed' | 'drifted' | 'invalid' | 'empty' | 'unmanaged';

/** A spread of statuses that makes every filter chip worth clicking. */
function kindOf(index: number): Kind {
  if (index % 97 === 0) return 'invalid';
  if (index % 61 === 0) return 'unmanaged';
  if (index % 53 === 0) return 'empty';
  if (index % 41 === 0) return 'drifted';
  return 'managed';
}

async function inBatches<T>(items: T[], run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: PARALLEL_WRITES }, worker));
}

/** Writes `count` destinations under `destinationsDir` (relative to the demo folder, with `/`). */
export async function writeLargeDestinations(disk: DemoDisk, destinationsDir: string, count: number): Promise<WorkspaceEntry[]> {
  const names = Array.from({ length: count }, (_, i) => `site-${String(i + 1).padStart(5, '0')}`);
  const entries: WorkspaceEntry[] = [];
  await inBatches(
    names.map((name, index) => ({ name, index })),
    async ({ name, index }) => {
      const dir = `${destinationsDir}/${name}`;
      const kind = kindOf(index + 1);
      await disk.mkdir(dir);
      if (kind === 'empty') return;
      if (kind === 'unmanaged') {
        await disk.writeFile(`${dir}/index.html`, '<!doctype html><title>hand made</title>\n');
        return;
      }
      // Spread over a month, so that sorting by published time means something.
      const minute = (index * 7) % (30 * 24 * 60);
      const publishedAt = new Date(Date.UTC(2026, 4, 1) + minute * 60_000).toISOString().replace('.000Z', 'Z');
      const publication = publish(statusPage, {
        pipelineId: 'status',
        destinationId: name,
        publishedAt,
        baseUrl: `https://${name}.status.example.com/`,
      });
      for (const [output, bytes] of publication.outputs) await disk.writeFile(`${dir}/${output}`, bytes);
      if (kind === 'drifted') await disk.appendFile(`${dir}/style.css`, '/* edited on the server */\n');
      const state: Record<string, unknown> = { ...publication.state };
      if (kind === 'invalid') state.published_at = '2026-02-30T12:00:00Z';
      await disk.writeFile(`${dir}/${STATE_FILE_NAME}`, stateText(state));
    },
  );
  for (const name of names) {
    entries.push({
      path: `${destinationsDir}/${name}`,
      pipeline_id: 'status',
      destination_id: name,
      source: 'sources/status-page',
      base_url: `https://${name}.status.example.com/`,
    });
  }
  return entries;
}
