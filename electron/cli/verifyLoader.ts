// The split point for `inspect --verify`: inspectCommand.ts loads this module only when --verify is
// given, so the hash pool and its worker threads are no part of a plain inspect's cold start.
// Must hold nothing but the re-export (the boundary rules see the static import here).

export { verifyDestination } from '../engine/verify';
