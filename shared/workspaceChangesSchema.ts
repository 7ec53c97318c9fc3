// What a re-read of the open workspace changed in its list, as the API carries it (a zod schema):
// shared/workspaceReload.ts holds the rule and re-exports its type, apart from zod so that the page's
// first screen does not evaluate it. Pure.

import { z } from 'zod';

/** What a re-read changed in the list, by id. `changed`: the same id with another path or configuration. */
export const workspaceChangesSchema = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.string()),
});
export type WorkspaceChanges = z.infer<typeof workspaceChangesSchema>;
