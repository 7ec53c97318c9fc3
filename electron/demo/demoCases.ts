// The catalogue of the demo workspace: one destination per thing a newcomer should see (every status,
// every verify status, every compare decision and conflict reason, an interrupted replace, warnings).
// Each case says what it shows and writes itself into its folder; it never writes outside that folder.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { outputRuleFor } from '../../shared/publishRules';
import type { EditableJson } from '../../shared/sampleDocuments';
import { markdownToHtml } from '../replace/markdownToHtml';
import { STAGING_DIR_NAME, STAGING_FILES_DIR, STAGING_MARKER_KIND, STAGING_MARKER_NAME, stagingMarkerText } from '../../shared/staging';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { handbookSources, makeSource, publish, type FileBytes, type Publication, type SourceBundle } from './demoBundles';
import type { DemoDisk } from './demoDisk';

export interface DemoSourceEntry {
  /** Folder under `sources/`. */
  name: string;
  bundle: SourceBundle;
}

export interface DemoCase {
  /** Folder under `destinations/`. */
  name: string;
  /** What a newcomer sees there, in a few words (printed by `demo`, shown in docs/demo.md). */
  shows: string;
  pipelineId: string;
  destinationId: string;
  /** A folder name of `sources/`. */
  source: string;
  baseUrl?: string;
  /**
   * Writes the destination's content into `dir` (relative to the demo folder, with `/`) through the
   * demo's disk; absent means the folder is never created (a missing destination).
   */
  write?: (disk: DemoDisk, dir: string) => Promise<void>;
}

/** Writes files under an absolute folder (the test fixtures' form; the demo writes through a DemoDisk). */
export async function writeFiles(root: string, files: FileBytes): Promise<void> {
  for (const [relative, bytes] of files) {
    const file = path.join(root, ...relative.split('/'));
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, bytes);
  }
}

export async function writeDemoFiles(disk: DemoDisk, dir: string, files: FileBytes): Promise<void> {
  for (const [relative, bytes] of files) await disk.writeFile(`${dir}/${relative}`, bytes);
}

export function stateText(state: unknown): string {
  return `${JSON.stringify(state, null, 2)}\n`;
}

async function writePublication(disk: DemoDisk, dir: string, publication: Publication, state: unknown = publication.state): Promise<void> {
  await writeDemoFiles(disk, dir, publication.outputs);
  await disk.writeFile(`${dir}/${STATE_FILE_NAME}`, typeof state === 'string' ? state : stateText(state));
}

/** A deep copy of a state as plain JSON, for cases that break it on purpose. */
function editable(publication: Publication): EditableJson {
  return JSON.parse(JSON.stringify(publication.state));
}

const sources = handbookSources();

/**
 * The bytes the app's own publish writes for a source file (replace/publish.ts outputBytesFor: its
 * markdown rendered by the app's renderer, not the demo's stand-in); the demo test proves they match.
 */
function appOutputBytes(sourcePath: string, bundle: SourceBundle): Buffer {
  const bytes = bundle.files.get(sourcePath)!;
  if (outputRuleFor(sourcePath).kind === 'source') return bytes;
  return Buffer.from(markdownToHtml(bytes.toString('utf8'), path.posix.basename(sourcePath, '.md')), 'utf8');
}

// Six files, one per verify status a destination can show.
const runbook = makeSource('runbook', '2026-05-20T08:30:00Z', {
  'index.md': '# Runbook\n\nWhat to do when the pager rings.\n',
  'checklists/deploy.txt': 'build, sign, publish\n',
  'checklists/rollback.txt': 'revert, republish, tell the channel\n',
  'contacts.txt': 'oncall: ops@example.com\n',
  'escalation.txt': 'page the lead after 30 minutes\n',
  'diagrams/topology.txt': 'lb -> app -> db\n',
});

// Two files that differ only by letter case: a warning, not an error.
const releaseNotes = makeSource('release-notes', '2026-06-03T16:45:00+02:00', {
  'index.md': '# Release notes\n\nVersion 4.2 is out.\n',
  'Changes.txt': 'Added: dark theme\n',
  'changes.txt': 'added: dark theme (lower case copy)\n',
});

export const DEMO_SOURCES: DemoSourceEntry[] = [
  { name: 'handbook-2026-05', bundle: sources.v1 },
  { name: 'handbook-2026-06', bundle: sources.v2 },
  { name: 'handbook-2026-06-rebuilt', bundle: sources.v2Rebuilt },
  { name: 'handbook-2026-06-edited', bundle: sources.v2Edited },
  { name: 'status-page', bundle: sources.status },
  { name: 'runbook', bundle: runbook },
  { name: 'release-notes', bundle: releaseNotes },
];

const HANDBOOK = 'handbook-docs';
const at = (day: number, hour: number) => `2026-06-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:15:00Z`;

function handbook(bundle: SourceBundle, destinationId: string, publishedAt: string): Publication {
  return publish(bundle, { pipelineId: HANDBOOK, destinationId, publishedAt, baseUrl: `https://${destinationId}.docs.example.com/` });
}

export const DEMO_CASES: DemoCase[] = [
  {
    name: 'docs-eu',
    shows: 'managed · intact · compare: skip (already holds this source)',
    pipelineId: HANDBOOK,
    destinationId: 'docs-eu',
    source: 'handbook-2026-06',
    baseUrl: 'https://docs-eu.docs.example.com/',
    write: (disk, dir) => writePublication(disk, dir, handbook(sources.v2, 'docs-eu', at(1, 10))),
  },
  {
    name: 'docs-us',
    shows: 'managed · intact · compare: replace (holds an older edition): try a normal replace',
    pipelineId: HANDBOOK,
    destinationId: 'docs-us',
    source: 'handbook-2026-06',
    baseUrl: 'https://docs-us.docs.example.com/',
    write: (disk, dir) => writePublication(disk, dir, handbook(sources.v1, 'docs-us', '2026-05-01T09:30:00Z')),
  },
  {
    name: 'docs-apac',
    shows: 'managed · intact · compare: skip_newer (holds a newer edition than its source)',
    pipelineId: HANDBOOK,
    destinationId: 'docs-apac',
    source: 'handbook-2026-05',
    write: (disk, dir) => writePublication(disk, dir, handbook(sources.v2, 'docs-apac', at(1, 11))),
  },
  {
    name: 'docs-latam',
    shows:
      'managed · interrupted replace (a leftover staging folder): Discard staging removes only that folder (a forced replace clears it too)',
    pipelineId: HANDBOOK,
    destinationId: 'docs-latam',
    source: 'handbook-2026-06',
    write: async (disk, dir) => {
      await writePublication(disk, dir, handbook(sources.v1, 'docs-latam', '2026-05-02T07:00:00Z'));
      // What a replace killed after staging leaves: the old state and outputs, plus its marked staging
      // folder (shared/staging.ts) holding half of the new outputs.
      const next = handbook(sources.v2, 'docs-latam', at(4, 3));
      const marker = stagingMarkerText({
        kind: STAGING_MARKER_KIND,
        version: 1,
        created: at(4, 3),
        mode: 'replace',
        source: { id: next.state.source.manifest.id, digest: next.state.source.manifest.digest },
        plannedAt: at(4, 3),
        pipeline_id: HANDBOOK,
        destination_id: 'docs-latam',
      });
      await writeDemoFiles(disk, `${dir}/${STAGING_DIR_NAME}`, new Map([[STAGING_MARKER_NAME, Buffer.from(marker)]]));
      await writeDemoFiles(disk, `${dir}/${STAGING_DIR_NAME}/${STAGING_FILES_DIR}`, new Map([...next.outputs].slice(0, 2)));
    },
  },
  {
    name: 'runbook-prod',
    shows: 'managed · drifted: missing, size_mismatch, hash_mismatch, not_a_file (link and folder), an extra file',
    pipelineId: 'runbook',
    destinationId: 'runbook-prod',
    source: 'runbook',
    write: async (disk, dir) => {
      const publication = publish(runbook, { pipelineId: 'runbook', destinationId: 'runbook-prod', publishedAt: at(2, 8) });
      await writePublication(disk, dir, publication);
      await disk.removeFile(`${dir}/contacts.txt`);
      await disk.appendFile(`${dir}/checklists/deploy.txt`, 'and smoke-test\n');
      const rollback = `${dir}/checklists/rollback.txt`;
      const original = (await disk.readFile(rollback)).toString('utf8');
      await disk.writeFile(rollback, original.toUpperCase());
      await disk.removeFile(`${dir}/escalation.txt`);
      await disk.symlink('index.html', `${dir}/escalation.txt`);
      await disk.removeFile(`${dir}/diagrams/topology.txt`);
      await disk.mkdir(`${dir}/diagrams/topology.txt`);
      await disk.writeFile(`${dir}/notes-by-hand.txt`, 'someone edited the server by hand\n');
    },
  },
  {
    name: 'release-notes',
    shows: 'managed · warnings: unknown fields, two paths that differ only by case, a key written twice',
    pipelineId: 'release-notes',
    destinationId: 'release-notes',
    source: 'release-notes',
    write: async (disk, dir) => {
      const publication = publish(releaseNotes, { pipelineId: 'release-notes', destinationId: 'release-notes', publishedAt: at(3, 15) });
      const state = editable(publication);
      state.build = { runner: 'ci-7', duration_ms: 5120 };
      state.outputs[0].cache_control = 'max-age=300';
      // A hand-merged file: distributor_version twice (the last one counts, as in the publisher's decoder).
      const text = stateText(state).replace(
        '"distributor_version": "1.4.2"',
        '"distributor_version": "1.4.1",\n  "distributor_version": "1.4.2"',
      );
      await writePublication(disk, dir, publication, text);
    },
  },
  {
    name: 'broken-sha',
    shows: 'invalid: an output sha256 in the wrong form · compare: conflict (invalid_state)',
    pipelineId: HANDBOOK,
    destinationId: 'broken-sha',
    source: 'handbook-2026-06',
    write: async (disk, dir) => {
      const publication = handbook(sources.v2, 'broken-sha', at(2, 12));
      const state = editable(publication);
      state.outputs[1].sha256 = state.outputs[1].sha256.replace('sha256:', 'SHA256:').slice(0, 40);
      await writePublication(disk, dir, publication, state);
    },
  },
  {
    name: 'broken-path',
    shows: 'invalid: an output path that climbs out of the destination ("../")',
    pipelineId: HANDBOOK,
    destinationId: 'broken-path',
    source: 'handbook-2026-06',
    write: async (disk, dir) => {
      const publication = handbook(sources.v2, 'broken-path', at(2, 13));
      const state = editable(publication);
      state.outputs[2].path = '../outside/upgrade.html';
      await writePublication(disk, dir, publication, state);
    },
  },
  {
    name: 'broken-duplicate',
    shows: 'invalid: the same output path listed twice, and a schema_version written as a string',
    pipelineId: HANDBOOK,
    destinationId: 'broken-duplicate',
    source: 'handbook-2026-06',
    write: async (disk, dir) => {
      const publication = handbook(sources.v2, 'broken-duplicate', at(2, 14));
      const state = editable(publication);
      state.schema_version = '1';
      state.outputs.push({ ...state.outputs[0] });
      await writePublication(disk, dir, publication, state);
    },
  },
  {
    name: 'broken-json',
    shows: 'invalid: a state file cut short mid-write (not JSON)',
    pipelineId: HANDBOOK,
    destinationId: 'broken-json',
    source: 'handbook-2026-06',
    write: async (disk, dir) => {
      const publication = handbook(sources.v2, 'broken-json', at(2, 15));
      const text = stateText(publication.state);
      await writePublication(disk, dir, publication, text.slice(0, Math.floor(text.length / 2)));
    },
  },
  {
    name: 'docs-mirror',
    shows: 'managed · compare: conflict (identity_mismatch: another destination id)',
    pipelineId: HANDBOOK,
    destinationId: 'docs-mirror',
    source: 'handbook-2026-06',
    write: (disk, dir) => writePublication(disk, dir, handbook(sources.v2, 'docs-eu', at(1, 12))),
  },
  {
    name: 'docs-rebuilt',
    shows: 'managed · compare: conflict (digest_mismatch: same created time, another digest)',
    pipelineId: HANDBOOK,
    destinationId: 'docs-rebuilt',
    source: 'handbook-2026-06',
    write: (disk, dir) => writePublication(disk, dir, handbook(sources.v2Rebuilt, 'docs-rebuilt', at(1, 13))),
  },
  {
    name: 'docs-edited',
    shows: 'managed · compare: conflict (manifest_mismatch: same digest, other files)',
    pipelineId: HANDBOOK,
    destinationId: 'docs-edited',
    source: 'handbook-2026-06',
    write: (disk, dir) => writePublication(disk, dir, handbook(sources.v2Edited, 'docs-edited', at(1, 14))),
  },
  {
    name: 'legacy-site',
    shows: 'unmanaged: files but no state · compare: unmanaged (forced replace only)',
    pipelineId: 'status',
    destinationId: 'legacy-site',
    source: 'status-page',
    write: (disk, dir) =>
      writeDemoFiles(
        disk,
        dir,
        new Map([
          ['index.html', Buffer.from('<!doctype html><title>Old site</title><p>Uploaded by FTP in 2019.</p>\n')],
          ['images/banner.gif', Buffer.from('GIF89a')],
        ]),
      ),
  },
  {
    name: 'status-copied',
    shows:
      'unmanaged: the status page copied by hand, no state · compare with a source bundle: every file matches, so Adopt writes only the state',
    pipelineId: 'status',
    destinationId: 'status-copied',
    source: 'status-page',
    // What the app's own publish of status-page writes, byte for byte (its markdown rendered as a replace
    // renders it), put there by hand, beside a file of the host's own.
    write: (disk, dir) =>
      writeDemoFiles(
        disk,
        dir,
        new Map([
          ...sources.status.manifest.files.map(
            (file) => [outputRuleFor(file.path).path, appOutputBytes(file.path, sources.status)] as const,
          ),
          ['robots.txt', Buffer.from('User-agent: *\nDisallow:\n')],
        ]),
      ),
  },
  {
    name: 'status-new',
    shows: 'empty folder · compare: publish',
    pipelineId: 'status',
    destinationId: 'status-new',
    source: 'status-page',
    write: (disk, dir) => disk.mkdir(dir),
  },
  {
    name: 'status-missing',
    shows: 'empty (the folder does not exist yet) · compare: publish',
    pipelineId: 'status',
    destinationId: 'status-missing',
    source: 'status-page',
  },
];
