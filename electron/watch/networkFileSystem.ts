// Whether a folder lives on a file system where inotify cannot see other machines' writes (NFS, SMB,
// sshfs and other FUSE mounts, 9p, Ceph…): there a native watch looks healthy and stays silent, so the
// watcher polls instead. Reads the file system type with statfs; never opens or lists the folder.

import { promises as fs } from 'node:fs';

/** statfs f_type magic numbers (linux/magic.h) of file systems whose changes may come from elsewhere. */
const NETWORK_FILE_SYSTEMS = new Map<number, string>([
  [0x6969, 'nfs'],
  [0x517b, 'smb'],
  [0xff534d42, 'cifs'],
  [0xfe534d42, 'smb2'],
  [0x65735546, 'fuse'],
  [0x01021997, '9p'],
  [0x00c36400, 'ceph'],
  [0x5346414f, 'afs'],
  [0x6b414653, 'afs'],
  [0x47504653, 'gpfs'],
  [0x0bd00bd0, 'lustre'],
  [0x013111a8, 'ibrix'],
  [0x19830326, 'fhgfs'],
]);

/** The network file system's name when `folder` is on one; undefined when local, or when it cannot be told. */
export async function networkFileSystemOf(folder: string): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    const stats = await fs.statfs(folder);
    return NETWORK_FILE_SYSTEMS.get(Number(stats.type) >>> 0);
  } catch {
    return undefined;
  }
}
