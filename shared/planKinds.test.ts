// The plan-kind table: every kind has its words, an unknown kind reads as a replace, and the one
// confirmation rule reads the table (the gravest kinds by their typed id, the others by their backup).

import { describe, expect, it } from 'vitest';
import { appliedKindSchema } from './planSchema';
import { confirmationOf, PLAN_KINDS, planKindNoun, planKindOf } from './planKinds';

const KINDS = appliedKindSchema.options.flatMap((option) => ('options' in option ? option.options : [option.value]));

describe('the plan-kind table', () => {
  it('has a row for every kind a plan or a restore can be, and no other', () => {
    expect(Object.keys(PLAN_KINDS).sort()).toEqual([...KINDS].sort());
  });

  it('gives every kind its words: a title, a noun, a completed title and note, each its own title', () => {
    for (const kind of KINDS) {
      const facts = PLAN_KINDS[kind];
      expect(facts.title, kind).toMatch(/^[A-Z][a-z]/);
      expect(facts.noun, kind).toMatch(/^[a-z]/);
      expect(facts.doneTitle, kind).toMatch(/^[A-Z][a-z]+/);
      expect(facts.doneNote, kind).toMatch(/^[A-Z].*\.$/);
    }
    const titles = KINDS.map((kind) => PLAN_KINDS[kind].title);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('reads an unknown kind (an older or newer peer) as a replace, and names it by its own word in a sentence', () => {
    expect(planKindOf('merge')).toBe(PLAN_KINDS.replace);
    expect(planKindOf(undefined)).toBe(PLAN_KINDS.replace);
    expect(planKindOf('toString')).toBe(PLAN_KINDS.replace);
    expect(planKindOf('force')).toBe(PLAN_KINDS.force);
    expect(planKindNoun('merge')).toBe('merge');
    expect(planKindNoun('discard_staging')).toBe('discard of staging');
  });

  it('confirms a kind marked by id with the typed id even when backed up, the others by their backup', () => {
    for (const kind of KINDS) {
      expect(confirmationOf(kind, false), kind).toBe('typed_id');
      expect(confirmationOf(kind, true), kind).toBe(PLAN_KINDS[kind].confirmsById ? 'typed_id' : 'explicit');
    }
    expect(confirmationOf('restore', true)).toBe('typed_id');
    expect(confirmationOf('replace', true)).toBe('explicit');
  });

  it('confirms by its typed id a kind that puts a backup back: nothing is kept of what it removes', () => {
    for (const kind of KINDS) if (PLAN_KINDS[kind].putsBackBackup) expect(PLAN_KINDS[kind].confirmsById, kind).toBe(true);
  });
});
