// A source bundle as the pickers in Compare and Actions name it: where it is, what its manifest says
// it is (id, created, digest), and whether the workspace configures it for this destination. Pure.

import type { SourceBundleEntry } from '../../shared/sourceBundles';
import { formatTimestamp, shortHash } from './format';

/** When its manifest says it was created, in UTC: the same words on every machine. */
export function createdWords(created: string): string {
  return formatTimestamp(created)?.utc ?? created;
}

/** "sources/handbook-2026-05 — handbook, created 2026-05-01 09:00:00 UTC, 0a1b2c3d…9f8e7d (configured)". */
export function bundleLabel(bundle: SourceBundleEntry, destination: string): string {
  const configured = bundle.configuredFor.includes(destination) ? ' (configured)' : '';
  if (!bundle.manifest) return `${bundle.shownPath} — not a valid bundle: ${bundle.problem ?? 'unreadable'}`;
  const { id, created, digest, version } = bundle.manifest;
  return `${bundle.shownPath} — ${id}${version ? ` ${version}` : ''}, created ${createdWords(created)}, ${shortHash(digest)}${configured}`;
}

/** The listed bundle a typed or picked path names, if any (the list holds absolute paths). */
export function bundleAt(bundles: readonly SourceBundleEntry[], path: string): SourceBundleEntry | undefined {
  return bundles.find((bundle) => bundle.path === path || `${bundle.path}/manifest.json` === path);
}
