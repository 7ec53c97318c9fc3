// The history journal a page at a time (the API answers the newest page, and older ones by cursor):
// the first page loads with the view and again when its destination changes; older pages load only
// when asked ("Load older"), so a journal of any size never arrives whole. Records oldest first.

import { useCallback, useMemo, useState } from 'react';
import type { HistoryRecord } from '../../shared/historySchema';
import { getClient } from '../api/client';
import { useHistory } from './api';

interface Older {
  /** The first page these older pages continue: a new first page (reloaded) starts them again. */
  base: unknown;
  records: HistoryRecord[];
  cursor?: string;
  loading: boolean;
  error?: string;
}

export function useHistoryPages(destination: string | undefined, reload = 0) {
  const state = useHistory(destination, reload).state;
  const [kept, setOlder] = useState<Older>({ base: undefined, records: [], loading: false });
  const older = useMemo<Older>(
    () =>
      kept.base === state
        ? kept
        : { base: state, records: [], loading: false, ...(state.status === 'ok' ? { cursor: state.value.nextCursor } : {}) },
    [kept, state],
  );
  const loadOlder = useCallback(async () => {
    if (older.cursor === undefined || older.loading) return;
    setOlder({ ...older, loading: true });
    const answer = await getClient().invoke('history', { ...(destination ? { destination } : {}), cursor: older.cursor });
    setOlder(
      answer.ok
        ? { base: older.base, records: [...answer.value.records, ...older.records], cursor: answer.value.nextCursor, loading: false }
        : { ...older, loading: false, error: answer.error.message },
    );
  }, [destination, older]);
  const records = useMemo(() => (state.status === 'ok' ? [...older.records, ...state.value.records] : []), [state, older.records]);
  return { state, records, hasOlder: older.cursor !== undefined, loadingOlder: older.loading, olderError: older.error, loadOlder };
}
