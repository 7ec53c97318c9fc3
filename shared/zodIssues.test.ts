import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { describeValue, fromZodIssues } from './zodIssues';

const schema = z.object({ kind: z.enum(['a', 'b']), version: z.literal(1), name: z.string(), list: z.array(z.number()) });
const issuesOf = (value: unknown, at: (string | number)[] = [], root: unknown = value) =>
  fromZodIssues(schema.safeParse(value).error?.issues ?? [], root, at);

describe('fromZodIssues', () => {
  it('calls an absent field missing, whichever schema noticed it', () => {
    expect(issuesOf({ list: [] }).map((issue) => [issue.code, issue.message])).toEqual([
      ['missing_field', 'required field "kind" is missing'],
      ['missing_field', 'required field "version" is missing'],
      ['missing_field', 'required field "name" is missing'],
    ]);
  });

  it('says what a present value is and what it should be', () => {
    const issues = issuesOf({ kind: 'c', version: '1', name: {}, list: [1, 'x'] });
    expect(issues.map((issue) => [issue.path, issue.code, issue.message])).toEqual([
      [['kind'], 'invalid_value', expect.stringMatching(/^"kind" .*, not the string "c"$/)],
      [['version'], 'invalid_value', expect.stringMatching(/^"version" .*, not the string "1"$/)],
      [['name'], 'invalid_type', '"name" must be a string, not an object'],
      [['list', 1], 'invalid_type', 'item 1 must be a number, not the string "x"'],
    ]);
  });

  it('prefixes paths with where the checked value sits in the document', () => {
    const document = { outputs: [{}, { kind: 'a', version: 1, name: 3, list: [] }] };
    const issues = issuesOf(document.outputs[1], ['outputs', 1], document);
    expect(issues).toEqual([
      { path: ['outputs', 1, 'name'], code: 'invalid_type', message: '"name" must be a string, not the number 3', severity: 'error' },
    ]);
  });

  it('describes values briefly', () => {
    expect(describeValue('x'.repeat(50))).toBe(`the string "${'x'.repeat(40)}…"`);
    expect([null, [], {}, true, 2].map(describeValue)).toEqual(['null', 'an array', 'an object', 'a boolean', 'the number 2']);
  });
});
