// The API methods around the work: cancel a job, export a report, and the Electron shell's own
// (reveal a path, open a link, log, show the logs folder). Part of the one table in shared/api.ts.

import { z } from 'zod';
import { handle } from './apiEntries';
import { empty, spec, type MethodSpec } from './apiSpec';

export const shellMethods = {
  cancelJob: spec({
    summary: 'Stop a running job; it ends with an error event of code cancelled',
    request: z.strictObject({ job: handle }),
    response: z.object({ cancelled: z.boolean() }),
  }),
  exportReport: spec({
    summary: 'The last scan and verify results as a JSON or CSV document',
    request: z.strictObject({ format: z.enum(['json', 'csv']) }),
    response: z.object({ fileName: z.string(), mediaType: z.string(), content: z.string() }),
  }),
  revealPath: spec({
    summary: 'Show a destination (or a file inside it) in the file manager (Electron only)',
    request: z.strictObject({ destination: handle, path: z.string().max(4096).optional() }),
    response: z.object({ revealed: z.boolean() }),
    electronOnly: true,
  }),
  openLink: spec({
    summary: "Open an https link recorded in a destination's state in the system browser (Electron only)",
    request: z.strictObject({ destination: handle, url: z.string().max(4096) }),
    response: z.object({ opened: z.boolean() }),
    electronOnly: true,
  }),
  log: spec({
    summary: "Write one line to the app's log file (errors the renderer showed, with their context) (Electron only)",
    request: z.strictObject({
      level: z.enum(['error', 'warn', 'info']),
      message: z.string().max(4000),
      context: z.string().max(200).optional(),
    }),
    response: z.object({ logged: z.boolean() }),
    electronOnly: true,
  }),
  openLogsFolder: spec({
    summary: "Show the folder of the app's log files in the file manager; error messages link to it (Electron only)",
    request: empty,
    response: z.object({ opened: z.boolean() }),
    electronOnly: true,
  }),
} satisfies Record<string, MethodSpec>;
