// Child process of the journal's memory test: reads the journal named on its command line as the
// API answers it (one page, or all with `all`), serializes the answer as a transport would, and
// prints its own peak RSS, the time taken and the answer's size as JSON. Bundled by the test; tests only.

import { readHistory } from '../history/journal';

const [file, mode] = process.argv.slice(2);
const startedMs = performance.now();
const read = await readHistory(file!, mode === 'all' ? {} : { limit: 200 });
const answer = JSON.stringify(read);
process.stdout.write(
  JSON.stringify({
    ok: read.ok,
    ms: Math.round(performance.now() - startedMs),
    answerBytes: answer.length,
    issues: read.ok ? read.value.issues.length : 0,
    omitted: read.ok ? read.value.issues.filter((issue) => issue.omitted).map((issue) => issue.omitted) : [],
    // ru_maxrss: the peak resident set, in KiB on Linux.
    maxRssKiB: process.resourceUsage().maxRSS,
  }),
);
