// The auto-verify setting as the API carries it (docs/verify-freshness.md): whether a destination that
// changed on disk, or that the stat cache knows on opening, is verified again by itself. Pure.

import { z } from 'zod';

export const autoVerifySettingSchema = z.object({
  enabled: z.boolean(),
  /**
   * Set when the switch cannot move here, in words for the control's title: the environment turned
   * auto-verify off for this run, or live refresh is off (the ssh agent), so nothing is re-verified.
   */
  fixedBy: z.string().optional(),
});
export type AutoVerifySetting = z.infer<typeof autoVerifySettingSchema>;
