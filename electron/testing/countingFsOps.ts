// FsOps wrappers for tests: count every mutation apply makes, stop the process dead before mutation
// k (SIGKILL: no finally blocks, no cleanup, like a power cut for the process), or fail mutation k
// with an errno error (EIO, ENOSPC, EACCES, ENAMETOOLONG). For tests only; never imported by the app.

import type { FsOpName, FsOps } from '../replace/fsOps';
import { samplePoints, withReplayHint } from './testSampling';

export type BeforeMutation = (step: number, op: FsOpName, target: string) => void;

/** Calls `before(step, op, target)` with step = 1, 2, … before each mutation reaches `inner`. */
export function countingFsOps(inner: FsOps, before: BeforeMutation = () => undefined): FsOps & { count: () => number } {
  let step = 0;
  const next = (op: FsOpName, target: string) => before(++step, op, target);
  return {
    count: () => step,
    mkdir: async (dir, mode) => (next('mkdir', dir), inner.mkdir(dir, mode)),
    writeFile: async (file, bytes, options) => (next('writeFile', file), inner.writeFile(file, bytes, options)),
    syncFiles: async (files) => (next('syncFiles', `${files.length} files`), inner.syncFiles(files)),
    rename: async (from, to) => (next('rename', `${from} -> ${to}`), inner.rename(from, to)),
    unlink: async (file) => (next('unlink', file), inner.unlink(file)),
    rmdir: async (dir) => (next('rmdir', dir), inner.rmdir(dir)),
    fsyncDir: async (dir) => (next('fsyncDir', dir), inner.fsyncDir(dir)),
    removeTree: async (dir) => (next('removeTree', dir), inner.removeTree(dir)),
    symlink: async (target, link) => (next('symlink', link), inner.symlink(target, link)),
  };
}

/** Kills this process with SIGKILL right before mutation `killStep`. */
export function killingFsOps(inner: FsOps, killStep: number): FsOps & { count: () => number } {
  return countingFsOps(inner, (step) => {
    if (step === killStep) process.kill(process.pid, 'SIGKILL');
  });
}

export type InjectedErrno = 'EIO' | 'ENOSPC' | 'EACCES' | 'ENAMETOOLONG';

/** Fails mutation `failStep` (only that one) with an errno error such as EIO or ENOSPC. */
export function faultyFsOps(inner: FsOps, failStep: number, code: InjectedErrno): FsOps & { count: () => number } {
  return countingFsOps(inner, (step, op, target) => {
    if (step === failStep) {
      const failure = new Error(`${code}: injected failure, ${op} '${target}'`) as NodeJS.ErrnoException;
      failure.code = code;
      throw failure;
    }
  });
}

const ROTATING_CODES: readonly InjectedErrno[] = ['EIO', 'ENOSPC', 'EACCES', 'ENAMETOOLONG'];

export interface InjectedFault {
  step: number;
  code: InjectedErrno;
  /** "EIO at mutation 3 of 17", for assertion messages. */
  label: string;
}

/**
 * Runs an apply once through `count` to learn its n mutations, then through `attempt` with mutation
 * k failing, for every k = 1…n under TEST_FULL=1, else for a seeded sample of them (the first, the
 * last and about a quarter of the rest: testSampling.ts). The errno rotates through `codes` by k,
 * so a long apply sees each one in every phase. Returns n.
 */
export async function failAtEveryMutation(
  count: (fs: FsOps) => Promise<void>,
  attempt: (fs: FsOps, fault: InjectedFault) => Promise<void>,
  { inner, codes = ROTATING_CODES }: { inner: FsOps; codes?: readonly InjectedErrno[] },
): Promise<number> {
  const counter = countingFsOps(inner);
  await count(counter);
  const steps = counter.count();
  for (const step of samplePoints(steps, 'failAtEveryMutation')) {
    const code = codes[step % codes.length] as InjectedErrno;
    await attempt(faultyFsOps(inner, step, code), { step, code, label: `${code} at mutation ${step} of ${steps}` }).catch(withReplayHint);
  }
  return steps;
}
