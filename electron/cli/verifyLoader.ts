// The split point for `inspect --verify`: inspectCommand.ts loads this module only when --verify is
// given, so the hash pool and its worker threads are no part of a plain inspect's cold start.
// Must hold nothing but the re-export (the boundary rules see the static import here) and the import
// of startupChunk.ts, which keeps the modules it shares with the commands in their one chunk.

import './startupChunk'; // what every command's start shares, as one chunk of the build

export { verifyDestination } from '../service/destinationVerify';
