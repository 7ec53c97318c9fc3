// The modules every command's start shares, the CLI's shell and the reader of one destination,
// gathered into one chunk of the build. esbuild puts each module in the chunk of the exact set of
// entries that reach it (cli.js and every import() target: each command, verifyLoader.ts); shared by
// a different set of commands each, the ~40 modules of a cold `inspect` were spread over 19 files,
// and Node 20 pays for each ES module file it resolves, reads and links (a cold inspect: CPU 97 ms
// then, 87 ms in 5 files). So run.ts, every command module, verifyLoader.ts and hostDoor.ts import this file, and
// all that it imports is reached by the same set, one chunk. (agentClient.ts does not: hostDoor.ts
// imports it, and it would close a cycle.) Bare imports only, nothing to call; coldStart.test.ts
// holds a cold inspect to a few files.

import '../../shared/outputWords';
import '../../shared/result';
import '../../shared/sshUrl';
import '../../shared/staging';
import '../../shared/appVersion';
import '../service/destinationRead';
import './command';
import './outputStream';
import './progressBar';
import './hostPaths';
import './renderInspection';
import './style';
import './terminalText';
import './verifyText';
