// The workspace file `distributor-inspector.json`: its name and the fields it knows, without zod
// (its schema is workspaceSchema.ts): the loader of a workspace that is a folder needs nothing else.

export const WORKSPACE_FILE_NAME = 'distributor-inspector.json';

export const WORKSPACE_KNOWN_FIELDS = ['schema_version', 'destinations', 'hosts', 'history', 'backups'] as const;
export const WORKSPACE_HOST_KNOWN_FIELDS = ['name', 'url', 'agent', 'identity_file', 'jump_host', 'ssh_config', 'connect_timeout'] as const;
export const WORKSPACE_DESTINATION_KNOWN_FIELDS = [
  'path',
  'pipeline_id',
  'destination_id',
  'source',
  'base_url',
  'primary',
  'replace_policy',
] as const;
