// A destination's inspection as the detail pane shows it: read again after each change on disk, with
// the last answer about the same destination kept on screen while it is. A re-read that blanked the
// tab for its few milliseconds moved every control in it (a "Loading…" line above them, the Actions
// tab's sections reset), under a pointer that may be pressing one. Never shows the answer about one
// destination as another's.

import { useState } from 'react';
import type { ResponseOf } from '../../shared/api';
import { useInspectDestination } from './api';
import type { CallState } from './useApiCall';

type Inspected = ResponseOf<'inspectDestination'>;

export interface ShownInspection {
  state: CallState<Inspected>;
  /** The answer to show: the current one, or while it is read again the last one about `destination`. */
  data: Inspected | undefined;
}

export function useShownInspection(destination: string | undefined): ShownInspection {
  const { state } = useInspectDestination(destination);
  const [kept, setKept] = useState<Inspected | undefined>();
  const current = state.status === 'ok' && state.value.destination.id === destination ? state.value : undefined;
  if (current && current !== kept) setKept(current);
  const data = current ?? (state.status === 'loading' && kept?.destination.id === destination ? kept : undefined);
  return { state, data };
}
