// Mount points, for real: bind mounts (same device id, only the mount table tells) and a tmpfs
// (another device) inside the destination, and a source reached through a bind mount of it. Needs
// root and a kernel that lets us mount; each test says why when it is skipped.

import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyPlan } from './applyPlan';
import { mountPointsBelow, parseMountInfo } from './mountPoints';
import { planReplace } from './planReplace';
import { destinationSafetyRefusal } from './safeDestination';
import { snapshotTree, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { mountUnavailable, tempDirWithMounts } from '../testing/mountProbe';

const unavailable = mountUnavailable('bind');
const mountIt = unavailable ? it.skip : it;
if (unavailable) console.warn(`mountPoints.test.ts: real mount tests skipped: ${unavailable}`);

let root: string;
let mounted: string[];
beforeEach(async () => {
  ({ dir: root, mounted } = await tempDirWithMounts('mounts-'));
});

function mount(args: string[], point: string): void {
  execFileSync('mount', [...args, point], { stdio: 'pipe' });
  mounted.push(point);
}

async function outsideWithCanary(): Promise<string> {
  const outside = path.join(root, 'outside');
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'canary.txt'), 'canary');
  return outside;
}

describe('parseMountInfo', () => {
  it('reads the mount point of each line and undoes the octal escapes', () => {
    const text = [
      '22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw',
      '45 27 254:0 /tmp/a /tmp/with\\040space\\134x rw,relatime - ext4 /dev/vda rw',
      'garbage',
      '',
    ].join('\n');
    expect(parseMountInfo(text)).toEqual(['/', '/tmp/with space\\x']);
  });

  it('never throws and only returns absolute paths, whatever the text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        for (const point of parseMountInfo(text)) expect(point.startsWith('/')).toBe(true);
      }),
    );
  });

  it('lists only mount points strictly below a folder, not siblings sharing a prefix', () => {
    expect(mountPointsBelow('/d', ['/d', '/d/m', '/dx/m', '/d/m/n'])).toEqual(['/d/m', '/d/m/n']);
  });
});

describe('a forced replace never crosses into a mount point', () => {
  mountIt('refuses a plan whose destination holds a bind mount, naming it, and deletes nothing on either side', async () => {
    const outside = await outsideWithCanary();
    const dest = path.join(root, 'dest');
    await fs.mkdir(path.join(dest, 'data', 'mnt'), { recursive: true });
    await fs.writeFile(path.join(dest, 'stray.txt'), 'stray');
    mount(['--bind', outside], path.join(dest, 'data', 'mnt'));
    await writeBundle(path.join(root, 'source'), { 'index.md': '# Home' });
    const before = await snapshotTree(root);
    const outcome = await planReplace({
      destinationPath: dest,
      sourcePath: path.join(root, 'source'),
      mode: 'force',
      configured: { pipelineId: 'p', destinationId: 'd' },
    });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('crosses_mount_point');
    expect(outcome.error.message).toContain(path.join(dest, 'data', 'mnt'));
    expect(outcome.error.details?.mountPoints).toEqual(['data/mnt']);
    expect(await snapshotTree(root)).toBe(before);
    expect(await fs.readFile(path.join(outside, 'canary.txt'), 'utf8')).toBe('canary');
  });

  mountIt('refuses a plan whose destination holds another file system (tmpfs: another device)', async () => {
    const dest = path.join(root, 'dest');
    await fs.mkdir(path.join(dest, 'scratch'), { recursive: true });
    mount(['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs'], path.join(dest, 'scratch'));
    await fs.writeFile(path.join(dest, 'scratch', 'on-tmpfs.txt'), 'keep');
    await writeBundle(path.join(root, 'source'), { 'index.md': '# Home' });
    const outcome = await planReplace({
      destinationPath: dest,
      sourcePath: path.join(root, 'source'),
      mode: 'force',
      configured: { pipelineId: 'p', destinationId: 'd' },
    });
    expect(outcome.ok ? undefined : outcome.error.code).toBe('crosses_mount_point');
    expect(await fs.readFile(path.join(dest, 'scratch', 'on-tmpfs.txt'), 'utf8')).toBe('keep');
  });

  mountIt('re-checks at apply: a bind mount made after the plan stops the apply before anything changes', async () => {
    const outside = await outsideWithCanary();
    const dest = path.join(root, 'dest');
    await fs.mkdir(path.join(dest, 'data', 'mnt'), { recursive: true });
    await writeBundle(path.join(root, 'source'), { 'index.md': '# Home' });
    const outcome = await planReplace({
      destinationPath: dest,
      sourcePath: path.join(root, 'source'),
      mode: 'force',
      configured: { pipelineId: 'p', destinationId: 'd' },
    });
    if (!outcome.ok) throw new Error(outcome.error.message);
    mount(['--bind', outside], path.join(dest, 'data', 'mnt'));
    const before = await snapshotTree(root);
    const result = await applyPlan(outcome.value);
    // The mounted folder's own inode shows in the fingerprint: stale, or named as a mount point.
    expect(['crosses_mount_point', 'stale_plan']).toContain(result.error?.code);
    expect(result.changed).toBe(false);
    expect(await snapshotTree(root)).toBe(before);
  });

  mountIt('a normal replace refuses a recorded output whose folder is a bind mount', async () => {
    const outside = await outsideWithCanary();
    const dest = path.join(root, 'dest');
    const manifest = await writeBundle(path.join(root, 'old'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
    await writeManagedDestination(dest, { manifest, outputs: { 'pages/canary.txt': 'canary' } });
    mount(['--bind', outside], path.join(dest, 'pages'));
    await writeBundle(path.join(root, 'source'), { 'report.md': '# New' }, { created: '2026-06-05T09:00:00Z' });
    const outcome = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode: 'replace' });
    expect(outcome.ok ? undefined : outcome.error.code).toBe('crosses_mount_point');
    expect(await fs.readFile(path.join(outside, 'canary.txt'), 'utf8')).toBe('canary');
  });
});

describe('containment by device and inode', () => {
  mountIt('refuses a system folder reached through a bind mount under another path (/etc seen as dest)', async () => {
    const view = path.join(root, 'etc-view');
    await fs.mkdir(view);
    mount(['--bind', '/etc'], view);
    const refusal = await destinationSafetyRefusal({
      destinationPath: view,
      sourceRealPath: path.join(root, 'source'),
      mode: 'force',
      homeDirectory: path.join(root, 'home'),
    });
    expect(refusal?.code).toBe('destination_is_system_folder');
    expect(refusal?.message).toContain('/etc');
  });

  mountIt('refuses a destination whose source is reached through a bind mount of the destination itself', async () => {
    const dest = path.join(root, 'dest');
    const view = path.join(root, 'view');
    await fs.mkdir(dest);
    await fs.mkdir(view);
    await writeBundle(path.join(dest, 'bundle'), { 'index.md': '# Home' });
    mount(['--bind', dest], view);
    const sourceThroughMount = path.join(view, 'bundle');
    for (const mode of ['force', 'replace'] as const) {
      const refusal = await destinationSafetyRefusal({
        destinationPath: dest,
        sourceRealPath: sourceThroughMount,
        mode,
        homeDirectory: path.join(root, 'home'),
      });
      expect(refusal?.code, mode).toBe('destination_contains_source');
    }
    const before = await snapshotTree(dest);
    const outcome = await planReplace({
      destinationPath: dest,
      sourcePath: sourceThroughMount,
      mode: 'force',
      configured: { pipelineId: 'p', destinationId: 'd' },
      homeDirectory: path.join(root, 'home'),
    });
    expect(outcome.ok ? undefined : outcome.error.code).toBe('destination_contains_source');
    expect(await snapshotTree(dest)).toBe(before);
  });
});
