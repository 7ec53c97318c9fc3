// The workspace: the file format `distributor-inspector.json` (what an operator writes) and the loaded
// workspace (what the engine hands the UI), as zod schemas. Shapes only: paths are resolved, and
// duplicates found, by electron/engine/workspace.ts. Never touches the disk. Its name and known
// fields are in workspaceFile.ts, without zod; the loader reads a workspace file's schema through
// schemasOnDemand.ts, so that a scan of a folder does not load zod.

import { z } from 'zod';
import { cleanPathField, httpUrlField, nonEmptyString } from './fieldSchemas';
import { issueSchema } from './issueSchema';
import { jumpHostProblem, localSshFileProblem, MAX_CONNECT_TIMEOUT_SECONDS } from './hostSettings';
import { parseSshUrl } from './sshUrl';

export {
  WORKSPACE_DESTINATION_KNOWN_FIELDS,
  WORKSPACE_FILE_NAME,
  WORKSPACE_HOST_KNOWN_FIELDS,
  WORKSPACE_KNOWN_FIELDS,
} from './workspaceFile';

// Declared here, not in backupSchema.ts: that file needs plan.ts, which (through the verify
// report) needs this one.
/** The workspace file's `backups`: `"off"`, or where and how many. */
export const workspaceBackupsFieldSchema = z.union(
  [
    z.literal('off'),
    z.looseObject({
      folder: z
        .string()
        .min(1, { message: 'must not be empty' })
        .refine((text) => !text.includes('\u0000'), { message: 'must not contain a NUL character' })
        .optional(),
      keep: z.number().int({ message: 'must be a whole number' }).min(1, { message: 'must be 1 or more' }).max(1000).optional(),
    }),
  ],
  { message: 'must be "off" or an object {folder, keep}' },
);

export const replacePolicySchema = z.enum(['allow', 'deny'], { message: 'must be "allow" or "deny"' });
export type ReplacePolicy = z.infer<typeof replacePolicySchema>;

/** A path in the workspace file: relative to the file (or absolute). `..` is fine here; NUL is not. */
const workspacePathField = nonEmptyString.refine((text) => !text.includes('\u0000'), {
  message: 'must not contain a NUL character',
  params: { code: 'invalid_path' },
});

/** One destination as written in the file (snake_case, like the state file). */
export const workspaceFileDestinationSchema = z.looseObject({
  path: workspacePathField,
  pipeline_id: nonEmptyString.optional(),
  destination_id: nonEmptyString.optional(),
  /** The source bundle directory (or its manifest.json) this destination is published from. */
  source: workspacePathField.optional(),
  base_url: httpUrlField.optional(),
  /** Link policy: the output path whose url becomes `links.primary_url`. */
  primary: cleanPathField.optional(),
  replace_policy: replacePolicySchema.default('allow'),
});

/** A host's name: what its destinations' ids start with (`web-1:docs-us`), so it is short and plain. */
const hostNameField = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, {
  message: 'must be 1 to 63 letters, digits, ".", "_" or "-", starting with a letter or a digit',
});

function checkedSshField(problemOf: (text: string) => string | undefined) {
  return z.string().superRefine((text, ctx) => {
    const problem = problemOf(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { code: 'invalid_host_setting' } });
  });
}

const sshUrlField = z.string().superRefine((text, ctx) => {
  const parsed = parseSshUrl(text);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message, params: { code: 'invalid_ssh_url' } });
});

/**
 * Another machine (issue 15): its destinations are those of the folder or workspace file the ssh URL
 * names on that host, read there by the agent; nothing of them is written in this file.
 */
export const workspaceFileHostSchema = z.looseObject({
  name: hostNameField,
  /** `ssh://[user@]host[:port]/absolute/path` of a folder of destinations or a workspace file on that host. */
  url: sshUrlField,
  /** The agent command on that host (default `distributor-inspector`). */
  agent: nonEmptyString.optional(),
  /** The key ssh offers (`-i`): a file on this machine, absolute or `~/…`. */
  identity_file: checkedSshField(localSshFileProblem).optional(),
  /** The host ssh goes through (`-J`): `[user@]host[:port]`. */
  jump_host: checkedSshField(jumpHostProblem).optional(),
  /** The ssh config file to read instead of ~/.ssh/config (`-F`): a file on this machine. */
  ssh_config: checkedSshField(localSshFileProblem).optional(),
  /** Seconds the handshake may take, from ssh's start to the agent's hello (default 60; the CLI's --connect-timeout wins). */
  connect_timeout: z
    .number({ message: 'must be a number of seconds' })
    .gt(0, { message: 'must be above 0 seconds' })
    .max(MAX_CONNECT_TIMEOUT_SECONDS, { message: `must be at most ${MAX_CONNECT_TIMEOUT_SECONDS} seconds (a day)` })
    .optional(),
});

export const workspaceFileSchema = z
  .looseObject({
    schema_version: z.literal(1, { message: 'must be the number 1' }).optional(),
    destinations: z.array(workspaceFileDestinationSchema).optional(),
    hosts: z.array(workspaceFileHostSchema).optional(),
    /** The history journal (relative to this file); default `.inspector-history.jsonl` beside it. */
    history: workspacePathField.optional(),
    /** Backups of what applies remove: `"off"`, or `{folder, keep}` (folder relative to this file). */
    backups: workspaceBackupsFieldSchema.optional(),
  })
  .refine((file) => file.destinations !== undefined || file.hosts !== undefined, {
    path: ['destinations'],
    message: 'is required: the list of destinations (a file that lists hosts may leave it out)',
    params: { code: 'missing_field' },
    // Checked beside the other fields' problems, so that every one of them is listed at once.
    when: (payload) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
  });

export type WorkspaceFile = z.infer<typeof workspaceFileSchema>;
export type WorkspaceFileDestination = z.infer<typeof workspaceFileDestinationSchema>;
export type WorkspaceFileHost = z.infer<typeof workspaceFileHostSchema>;
/** One destination as a generator writes it (the demo): the fields it always fills, the rest as the file allows. */
export type WorkspaceEntry = z.input<typeof workspaceFileDestinationSchema> & {
  pipeline_id: string;
  destination_id: string;
  source: string;
};

/** One destination of a loaded workspace: absolute paths, camelCase, a unique id. */
export const workspaceDestinationSchema = z.object({
  /** Unique in the workspace: the configured destination_id, else the path relative to the root. */
  id: z.string(),
  /** Absolute destination bundle path. */
  path: z.string(),
  pipelineId: z.string().optional(),
  destinationId: z.string().optional(),
  /** Absolute path of the source bundle (directory or manifest.json). */
  source: z.string().optional(),
  baseUrl: z.string().optional(),
  primary: z.string().optional(),
  replacePolicy: replacePolicySchema,
  /** The workspace host it is on (`hosts[].name`); absent for this machine's. Its `path` is on that host. */
  host: z.string().optional(),
});
export type WorkspaceDestination = z.infer<typeof workspaceDestinationSchema>;

/** One host of a loaded workspace, as the file gives it (the URL is checked, kept as written). */
export const workspaceHostSchema = z.object({
  name: z.string(),
  url: z.string(),
  agent: z.string().optional(),
  identityFile: z.string().optional(),
  jumpHost: z.string().optional(),
  sshConfig: z.string().optional(),
  /** The file's `connect_timeout`, in milliseconds. */
  connectTimeoutMs: z.number().optional(),
  /** The URL's folder is the host's one destination (an `ssh://` path opened as a workspace of one host). */
  asDestination: z.boolean().optional(),
});
export type WorkspaceHost = z.infer<typeof workspaceHostSchema>;

/** A workspace as the loader gives it to the engine. */
export const loadedWorkspaceSchema = z.object({
  kind: z.enum(['folder', 'file']),
  /** Absolute: the folder itself, or the directory holding the workspace file. */
  root: z.string(),
  /** Absolute path of the workspace file, when kind is file. */
  file: z.string().optional(),
  destinations: z.array(workspaceDestinationSchema),
  /** Other machines whose destinations the agent there reads (workspace files only). */
  hosts: z.array(workspaceHostSchema).optional(),
  /** The history journal the file configures (absolute); else the default of history/journalPath.ts. */
  historyFile: z.string().optional(),
  /** The file's `backups`: off, or the folder (absolute) and how many to keep; else the defaults of backup/backupLocation.ts. */
  backups: z.object({ off: z.boolean().optional(), folder: z.string().optional(), keep: z.number().optional() }).optional(),
});
export type LoadedWorkspace = z.infer<typeof loadedWorkspaceSchema>;

/**
 * Why the list on screen is the last good one: the workspace file (or folder) stopped loading when it
 * was read again (Rescan, live refresh). Every problem, the first as one line, and when.
 */
export const workspaceReloadProblemSchema = z.object({
  /** The workspace file (or folder) that was read. */
  file: z.string(),
  /** The first problem as one line, `file: field: message`. */
  message: z.string(),
  issues: z.array(issueSchema),
  /** When the re-read failed (ISO 8601). */
  at: z.string(),
});
export type WorkspaceReloadProblem = z.infer<typeof workspaceReloadProblemSchema>;

/** The open workspace as the API hands it to the renderer: where it is, its destinations, and its own problems. */
export const workspaceSummarySchema = loadedWorkspaceSchema.omit({ file: true }).extend({
  /** The folder or workspace file as opened (absolute); a folder that holds a workspace file opens as that file. */
  path: z.string(),
  /** Problems with the workspace itself (warnings: unknown fields, skipped entries). */
  issues: z.array(issueSchema),
  /** When this list of destinations was read from the disk (ISO 8601). */
  listReadAt: z.string().optional(),
  /** Set when the last re-read failed: the list is the last good one, read at listReadAt. */
  reloadProblem: workspaceReloadProblemSchema.optional(),
  /** The app's own demo workspace (a folder its demo marker vouches for): it can be reset (resetDemo). */
  demo: z.boolean().optional(),
});
export type WorkspaceSummary = z.infer<typeof workspaceSummarySchema>;

export const workspaceLoadSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), workspace: loadedWorkspaceSchema, issues: z.array(issueSchema) }),
  z.object({ ok: z.literal(false), file: z.string(), issues: z.array(issueSchema) }),
]);
export type WorkspaceLoad = z.infer<typeof workspaceLoadSchema>;
