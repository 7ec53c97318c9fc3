// Building blocks of the demo workspace: source bundles with real hashes, and what a publisher would
// have written from them (outputs and state). Pure data; demo.ts puts it on disk.
// Never produces a state file that claims bytes it does not also produce, unless a case asks for it.

import { sha256Of } from '../engine/stateDigests';
import type { Manifest } from '../../shared/manifestSchema';
import type { OutputRecord, State } from '../../shared/stateSchema';

export type FileBytes = Map<string, Buffer>;

export interface SourceBundle {
  manifest: Manifest;
  /** Every file the manifest lists, by path. */
  files: FileBytes;
}

export interface Publication {
  state: State;
  /** The bytes of every output, by output path. */
  outputs: FileBytes;
}

export { sha256Of };

/** The manifest digest: opaque to the inspector (CONTRACT.md), so any stable function of the files does. */
function digestOf(files: Manifest['files']): string {
  return sha256Of(files.map((file) => `${file.path}\0${file.sha256}\0${file.size}\n`).join(''));
}

export function makeSource(id: string, created: string, contents: Record<string, string | Buffer>, digestSalt = ''): SourceBundle {
  const files: FileBytes = new Map();
  for (const [path, content] of Object.entries(contents))
    files.set(path, Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'));
  const listed = [...files].map(([path, bytes]) => ({ path, sha256: sha256Of(bytes), size: bytes.length }));
  listed.sort((a, b) => (a.path < b.path ? -1 : 1));
  const digest = digestSalt === '' ? digestOf(listed) : sha256Of(`${digestOf(listed)}${digestSalt}`);
  return { manifest: { schema_version: 1, id, digest, created, files: listed }, files };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A small, honest stand-in for markdown_to_html: headings and paragraphs, everything escaped. */
export function markdownToHtmlForDemo(markdown: string): string {
  const lines = markdown.split('\n').filter((line) => line.trim() !== '');
  const title = lines.find((line) => line.startsWith('# '))?.slice(2) ?? 'Untitled';
  const body = lines
    .map((line) => {
      const heading = /^(#{1,6}) (.*)$/.exec(line);
      if (heading) return `<h${heading[1]!.length}>${escapeHtml(heading[2]!)}</h${heading[1]!.length}>`;
      return `<p>${escapeHtml(line)}</p>`;
    })
    .join('\n');
  return `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>\n${body}\n</body>\n</html>\n`;
}

export interface PublishOptions {
  pipelineId: string;
  destinationId: string;
  publishedAt: string;
  baseUrl?: string;
}

function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** What the publisher writes for a source (CONTRACT.md: Publishing). */
export function publish(source: SourceBundle, options: PublishOptions): Publication {
  const outputs: FileBytes = new Map();
  const records: OutputRecord[] = [];
  for (const file of source.manifest.files) {
    const bytes = source.files.get(file.path)!;
    const isMarkdown = file.path.endsWith('.md');
    const path = isMarkdown ? `${file.path.slice(0, -3)}.html` : file.path;
    const written = isMarkdown ? Buffer.from(markdownToHtmlForDemo(bytes.toString('utf8')), 'utf8') : bytes;
    outputs.set(path, written);
    const record: OutputRecord = isMarkdown
      ? { path, kind: 'generated', source_path: file.path, transform: 'markdown_to_html', sha256: sha256Of(written), size: written.length }
      : { path, kind: 'source', source_path: file.path, sha256: sha256Of(written), size: written.length };
    if (options.baseUrl) record.url = joinUrl(options.baseUrl, path);
    records.push(record);
  }
  const state: State = {
    schema_version: 1,
    distributor_version: '1.4.2',
    pipeline_id: options.pipelineId,
    destination_id: options.destinationId,
    published_at: options.publishedAt,
    source: { manifest: source.manifest },
    outputs: records,
  };
  const primary = outputs.has('index.html') ? 'index.html' : undefined;
  if (options.baseUrl && primary) state.links = { primary_url: joinUrl(options.baseUrl, primary) };
  return { state, outputs };
}

/** The handbook sources every small-demo case is built from. */
export function handbookSources() {
  const logo = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  const v1 = makeSource('handbook', '2026-05-01T09:00:00Z', {
    'index.md': '# Operator handbook\n\nHow we publish the handbook to every region.\n',
    'guide/install.md': '# Install\n\nRun the installer, then open the app.\n',
    'assets/logo.png': logo,
    'data/regions.csv': 'region,owner\neu,ops-eu\nus,ops-us\n',
  });
  const v2Files = {
    'index.md': '# Operator handbook\n\nHow we publish the handbook to every region, second edition.\n',
    'guide/install.md': '# Install\n\nRun the installer, then open the app.\n',
    'guide/upgrade.md': '# Upgrade\n\nRead the release notes first.\n',
    'assets/logo.png': logo,
  };
  // Nanoseconds on purpose: the app must compare instants at full precision.
  const v2 = makeSource('handbook', '2026-06-01T09:00:00.123456789Z', v2Files);
  // Same id and created instant as v2, but rebuilt: a different digest (rule 8).
  const v2Rebuilt = makeSource('handbook', v2.manifest.created, {
    ...v2Files,
    'index.md': '# Operator handbook\n\nRebuilt by hand on a laptop.\n',
  });
  // Same id, created and digest as v2, but a file list that differs (rule 9): a manifest edited after the fact.
  const v2Edited: SourceBundle = {
    manifest: { ...v2.manifest, files: v2.manifest.files.filter((file) => file.path !== 'guide/upgrade.md') },
    files: new Map([...v2.files].filter(([path]) => path !== 'guide/upgrade.md')),
  };
  const status = makeSource('status-page', '2026-06-02T12:00:00Z', {
    'index.md': '# Status\n\nAll systems normal.\n',
    'style.css': 'body { font-family: sans-serif; }\n',
  });
  return { v1, v2, v2Rebuilt, v2Edited, status };
}
