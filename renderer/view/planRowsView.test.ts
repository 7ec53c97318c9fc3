import { describe, expect, it } from 'vitest';
import { planRows } from '../../shared/planRows';
import { samplePlan } from '../testing/samplePlan';
import { filterPlanRows, planExport, planRowDetail } from './planRowsView';

describe('planRowsView', () => {
  const plan = samplePlan({ extraDeletes: 3 });
  const { rows } = planRows({ ...plan, extras: ['notes.txt'] });

  it('filters by text in the path and by kind, leaving the rows as they are', () => {
    expect(filterPlanRows(rows, { text: 'PAGE', hidden: new Set() }).map((row) => row.path)).toEqual([
      'page-1.html',
      'page-2.html',
      'page-3.html',
    ]);
    expect(filterPlanRows(rows, { text: '', hidden: new Set(['delete', 'keep']) }).map((row) => row.kind)).toEqual(['create', 'create']);
    expect(filterPlanRows(rows, { text: '  ', hidden: new Set() })).toHaveLength(rows.length);
  });

  it('says what is written and how, and when the edits on disk are lost', () => {
    const index = rows.find((row) => row.path === 'index.html')!;
    expect(planRowDetail(index)).toBe('171 B · generated from index.md');
    expect(planRowDetail({ kind: 'update', path: 'a', type: 'file', size: 10, oldSize: 5, changed: 'hash_mismatch' })).toBe(
      '10 B (was 5 B) · changed on disk since published: will be lost',
    );
    expect(planRowDetail({ kind: 'keep', path: 'x', type: 'file', note: 'extra' })).toBe('');
  });

  it('exports the plan as JSON with its rows and totals, under a file name of the folder and the plan time', () => {
    const exported = planExport(plan);
    expect(exported.fileName).toBe('plan-replace-legacy-site-2026-06-04T12-00-00Z.json');
    const document = JSON.parse(exported.content);
    expect(document.plan).toEqual(plan);
    expect(document.totals).toEqual({ create: 2, update: 0, delete: 4, unchanged: 0, keep: 0 });
  });
});
