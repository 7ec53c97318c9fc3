// The lean door to verifying one destination's outputs on this machine (issue 25): the hash pool and
// its workers behind one import, which the CLI's `inspect --verify` loads only when asked
// (cli/verifyLoader.ts). The same verify the Session's scan with `verify` runs in its workers.

export { verifyDestination } from '../engine/verify';
