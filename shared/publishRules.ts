// The publishing rules of CONTRACT.md (Publishing), as pure functions: which output a source file
// becomes, the url of an output, and which output the primary link points at. No Node, no DOM.

import { httpUrlProblem } from './fields';
import type { OutputKind } from './stateSchema';
import type { Result } from './result';

export const MARKDOWN_TRANSFORM = 'markdown_to_html';

export interface OutputRule {
  path: string;
  kind: OutputKind;
  transform?: typeof MARKDOWN_TRANSFORM;
}

/** `.md` (exactly, lower case, as the contract writes it) becomes a generated `.html`; the rest is copied. */
export function outputRuleFor(sourcePath: string): OutputRule {
  if (sourcePath.endsWith('.md')) {
    return { path: `${sourcePath.slice(0, -'.md'.length)}.html`, kind: 'generated', transform: MARKDOWN_TRANSFORM };
  }
  return { path: sourcePath, kind: 'source' };
}

/** Why a base_url cannot be used, or null. A query or fragment would swallow the joined path. */
export function baseUrlProblem(baseUrl: string): string | null {
  const problem = httpUrlProblem(baseUrl);
  if (problem) return problem;
  const url = new URL(baseUrl);
  if (url.search !== '' || url.hash !== '') return 'must not have a query or a fragment';
  return null;
}

/** The base joined with the path, each segment URL-encoded. Assumes baseUrlProblem(baseUrl) is null. */
export function outputUrl(baseUrl: string, outputPath: string): string {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return base + outputPath.split('/').map(encodeURIComponent).join('/');
}

/** The primary output's path (undefined: none), or why the configured one cannot be. */
export type PrimaryChoice = Result<string | undefined, string>;

/**
 * The link policy: the configured output path; by default `index.html` if present, else the only
 * generated output, else none.
 */
export function choosePrimaryOutput(outputs: readonly { path: string; kind: OutputKind }[], configured?: string): PrimaryChoice {
  if (configured !== undefined) {
    if (outputs.some((output) => output.path === configured)) return { ok: true, value: configured };
    return { ok: false, error: `the configured primary output "${configured}" is not one of the outputs` };
  }
  if (outputs.some((output) => output.path === 'index.html')) return { ok: true, value: 'index.html' };
  const generated = outputs.filter((output) => output.kind === 'generated');
  return { ok: true, value: generated.length === 1 ? generated[0]?.path : undefined };
}
