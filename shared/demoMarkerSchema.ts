// The demo's marker file (`.distributor-inspector-demo` in a demo folder): which generator wrote the
// folder and every path it wrote there, so that a re-run removes those and nothing else.
// Shape only; electron/demo/demoMarker.ts reads it from disk and compares it with what is there.

import { z } from 'zod';
import { isCleanRelativePath } from './cleanPath';

export const DEMO_MARKER_FILE = '.distributor-inspector-demo';
export const DEMO_GENERATOR = 'distributor-inspector demo';
/** Format 1 (before this one) had no path list: such a folder is refused, never emptied on trust. */
export const DEMO_MARKER_FORMAT = 2;

export const demoMarkerSchema = z.strictObject({
  generator: z.literal(DEMO_GENERATOR),
  format: z.literal(DEMO_MARKER_FORMAT),
  large: z.boolean(),
  /** Relative to the demo folder, with `/`: files, links and folders, parents before children. */
  paths: z.array(
    z.string().refine((path) => isCleanRelativePath(path) && path !== DEMO_MARKER_FILE, {
      message: 'must be a clean relative path inside the demo folder, other than the marker itself',
    }),
  ),
});

export type DemoMarker = z.infer<typeof demoMarkerSchema>;
