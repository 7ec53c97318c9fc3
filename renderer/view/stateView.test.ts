import { describe, expect, it } from 'vitest';
import { isOpenableLink, readState, splitIssues, stateCounts } from './stateView';

const sha = (c: string) => `sha256:${c.repeat(64)}`;
const stateJson = {
  schema_version: 1,
  pipeline_id: 'p',
  destination_id: 'd',
  published_at: '2026-06-01T10:00:00Z',
  source: {
    manifest: {
      schema_version: 1,
      id: 'm',
      digest: sha('a'),
      created: '2026-06-01T09:00:00Z',
      files: [
        { path: 'index.md', sha256: sha('b'), size: 10 },
        { path: 'a.css', sha256: sha('c'), size: 5 },
      ],
    },
  },
  outputs: [
    { path: 'index.html', kind: 'generated', source_path: 'index.md', transform: 'markdown_to_html', sha256: sha('d'), size: 100 },
    { path: 'a.css', kind: 'source', source_path: 'a.css', sha256: sha('c'), size: 5 },
  ],
};

describe('reading a state for display', () => {
  it('counts outputs by kind and bytes, and the manifest files', () => {
    const state = readState(stateJson);
    expect(state && stateCounts(state)).toEqual({
      outputs: 2,
      generated: 1,
      copied: 1,
      outputBytes: 105,
      manifestFiles: 2,
      manifestBytes: 15,
    });
  });

  it('gives no typed state for an invalid one', () => {
    expect(readState({ ...stateJson, schema_version: '1' })).toBeUndefined();
    expect(readState(undefined)).toBeUndefined();
  });

  it('opens only https links', () => {
    expect(isOpenableLink('https://docs.example.com/')).toBe(true);
    expect(isOpenableLink('http://docs.example.com/')).toBe(false);
    expect(isOpenableLink('javascript:alert(1)')).toBe(false);
    expect(isOpenableLink(undefined)).toBe(false);
  });

  it('splits errors from warnings', () => {
    const issues = [
      { path: [], code: 'a', message: '', severity: 'warning' as const },
      { path: [], code: 'b', message: '', severity: 'error' as const },
    ];
    expect(splitIssues(issues).errors.map((issue) => issue.code)).toEqual(['b']);
  });
});
