// Valid sample documents of the contract, built by small functions: the starting point of tests,
// benchmarks and demos, which then break one thing at a time. Plain JSON values, never shared
// between calls (each call builds a fresh object that the caller may mutate).

/**
 * A sample document as a test breaks it: any field at any depth may be set to anything or deleted.
 * The one `any` of the project, on purpose: the point is to write what no type allows.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: a document broken on purpose
export type EditableJson = Record<string, any>;

/** A well-formed digest whose 64 hex digits encode `n`, so that samples differ predictably. */
export function sampleSha256(n: number): string {
  return `sha256:${n.toString(16).padStart(64, '0')}`;
}

export interface SampleManifestOptions {
  id?: string;
  created?: string;
  digest?: string;
  /** How many files besides report.md (named pages/page-N.md). */
  extraFiles?: number;
}

export function sampleManifest(options: SampleManifestOptions = {}): Record<string, unknown> & { files: Record<string, unknown>[] } {
  const files: Record<string, unknown>[] = [{ path: 'report.md', sha256: sampleSha256(1), size: 1234 }];
  for (let i = 0; i < (options.extraFiles ?? 0); i++)
    files.push({ path: `pages/page-${i}.md`, sha256: sampleSha256(1000 + i), size: 100 + i });
  return {
    schema_version: 1,
    id: options.id ?? 'reports.example.2026-06-04',
    digest: options.digest ?? sampleSha256(0xd1),
    created: options.created ?? '2026-06-04T11:55:00Z',
    files,
  };
}

export interface SampleStateOptions extends SampleManifestOptions {
  pipelineId?: string;
  destinationId?: string;
}

/** The example of the contract's seed, made valid: one generated output per manifest file. */
export function sampleState(options: SampleStateOptions = {}): Record<string, unknown> & {
  source: { manifest: ReturnType<typeof sampleManifest> };
  outputs: Record<string, unknown>[];
} {
  const manifest = sampleManifest(options);
  const outputs = manifest.files.map((file, index) => {
    const path = String(file.path).replace(/\.md$/, '.html');
    return {
      path,
      kind: 'generated',
      source_path: file.path,
      transform: 'markdown_to_html',
      url: `https://reports.example.com/archive/${path}`,
      sha256: sampleSha256(5000 + index),
      size: 2345 + index,
    };
  });
  return {
    schema_version: 1,
    distributor_version: 'dev',
    pipeline_id: options.pipelineId ?? 'reports',
    destination_id: options.destinationId ?? 'archive',
    published_at: '2026-06-04T12:00:00Z',
    source: { manifest },
    links: { primary_url: 'https://reports.example.com/archive/report.html' },
    outputs,
  };
}

/**
 * The text of a state whose every output is bad in five ways (a wrong kind, an unknown source_path,
 * a bad sha256, a size written as 1.0, an unknown field): the hostile state of millions of bad
 * records, at any size, built as text (an object graph of it would cost more than the test).
 */
export function sampleBadOutputsStateText(outputCount: number): string {
  const shell = JSON.stringify({ ...sampleState(), outputs: [] });
  const records: string[] = [];
  for (let i = 0; i < outputCount; i++)
    records.push(`{"path":"p/${i}.html","kind":"bogus","source_path":"nope/${i}.md","sha256":"bad","size":1.0,"extra":1}`);
  return shell.replace('"outputs":[]', `"outputs":[${records.join(',')}]`);
}

/** Every [container, key] in a JSON tree, so that a test's edit can reach any field at any depth. */
export function jsonSlots(value: unknown, found: [EditableJson, string | number][] = []): [EditableJson, string | number][] {
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const slotKey = Array.isArray(value) ? Number(key) : key;
      found.push([value as EditableJson, slotKey]);
      jsonSlots((value as EditableJson)[slotKey], found);
    }
  }
  return found;
}
