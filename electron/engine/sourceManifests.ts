// The configured source bundles' manifests, read once for a pass over many destinations (a scan of
// 10,000 that share one source reads its manifest once), and read again after forget() (a Rescan,
// or live refresh seeing the bundle change). Reads only; a source that cannot be read is a result.

import path from 'node:path';
import { syncOfInspection, type SyncSource, type SyncStatus } from '../../shared/syncStatus';
import { MANIFEST_FILE_NAME, readSource } from './readSource';

/** The bundle folder a configured source names: itself, or the folder of the manifest it names. */
export function bundleFolderOf(source: string): string {
  const resolved = path.resolve(source);
  return path.basename(resolved) === MANIFEST_FILE_NAME ? path.dirname(resolved) : resolved;
}

export class SourceManifests {
  private readonly reads = new Map<string, Promise<SyncSource>>();
  private readonly settled = new Map<string, SyncSource>();

  /** The source as last read (read now when it was not). */
  read(source: string): Promise<SyncSource> {
    const key = path.resolve(source);
    let read = this.reads.get(key);
    if (!read) {
      read = readSource(key).then((result): SyncSource => {
        const outcome: SyncSource = result.ok
          ? { ok: true, manifest: result.manifest }
          : { ok: false, problem: result.issues[0]?.message ?? `${result.manifestFile} cannot be read` };
        // Only the read still current is kept: one forgotten meanwhile is read again next time.
        if (this.reads.get(key) === read) this.settled.set(key, outcome);
        return outcome;
      });
      this.reads.set(key, read);
    }
    return read;
  }

  /** Every source these destinations configure, read before a pass decides each one's sync without waiting. */
  async readAll(destinations: readonly { source?: string }[]): Promise<void> {
    const sources = new Set<string>();
    for (const destination of destinations) if (destination.source !== undefined) sources.add(destination.source);
    await Promise.all([...sources].map((source) => this.read(source)));
  }

  /** The source as read by read() or readAll(); undefined when it was not read (or forgotten since). */
  known(source: string): SyncSource | undefined {
    return this.settled.get(path.resolve(source));
  }

  /** The sync of a destination read in a pass, against its source as readAll() read it (shared/syncStatus.ts). */
  syncOf(
    destination: Parameters<typeof syncOfInspection>[0] & { source?: string },
    inspection: Parameters<typeof syncOfInspection>[1],
  ): SyncStatus {
    return syncOfInspection(destination, inspection, destination.source === undefined ? undefined : this.known(destination.source));
  }

  /** Forgets the sources in this bundle folder (a manifest named directly too), or every source. */
  forget(bundleFolder?: string): void {
    for (const key of [...this.reads.keys()]) {
      if (bundleFolder !== undefined && bundleFolderOf(key) !== path.resolve(bundleFolder)) continue;
      this.reads.delete(key);
      this.settled.delete(key);
    }
  }
}
