import { describe, expect, it } from 'vitest';
import { apiError } from '../../shared/api';
import { error } from '../../shared/issues';
import { openFailureOf } from './openFailure';

const FILE = '/srv/ws/distributor-inspector.json';

describe('openFailureOf', () => {
  it('lists every problem of the workspace file with its field, not only the first', () => {
    const failure = openFailureOf(
      '/srv/ws',
      apiError('invalid_workspace', `${FILE}: destinations[0].path: "path" must not be empty`, {
        file: FILE,
        issues: [
          error(['destinations', 0, 'path'], 'too_small', '"path" must not be empty'),
          error(['destinations', 0, 'replace_policy'], 'invalid_value', '"replace_policy" must be "allow" or "deny"'),
          error(['destinations', 1, 'base_url'], 'invalid_url', '"base_url" must use http or https, not ftp'),
        ],
      }),
    );
    expect(failure.file).toBe(FILE);
    expect(failure.problems.map((problem) => problem.field)).toEqual([
      'destinations[0].path',
      'destinations[0].replace_policy',
      'destinations[1].base_url',
    ]);
    expect(failure.problems[2]!.message).toBe('"base_url" must use http or https, not ftp');
  });

  it('names the file once: a message that starts with it says only what is wrong', () => {
    const failure = openFailureOf(
      '~/nowhere',
      apiError('invalid_workspace', '/home/op/nowhere: /home/op/nowhere does not exist', {
        file: '/home/op/nowhere',
        issues: [error([], 'workspace_unreadable', '/home/op/nowhere does not exist')],
      }),
    );
    expect(failure).toEqual({ file: '/home/op/nowhere', problems: [{ code: 'workspace_unreadable', message: 'does not exist' }] });
  });

  it('keeps a message that only mentions the file later on, and one that is nothing but the file', () => {
    const failure = openFailureOf(
      FILE,
      apiError('invalid_workspace', 'x', {
        file: FILE,
        issues: [error([], 'a', `cannot read ${FILE}`), error([], 'b', FILE)],
      }),
    );
    expect(failure.problems.map((problem) => problem.message)).toEqual([`cannot read ${FILE}`, FILE]);
  });

  it('falls back to the error itself when the engine sent no issues (a refusal, a lost connection)', () => {
    const failure = openFailureOf(
      '/srv/ws',
      apiError('refused', 'a replace is running: wait for it to finish before opening another workspace'),
    );
    expect(failure).toEqual({
      file: '/srv/ws',
      problems: [{ code: 'refused', message: 'a replace is running: wait for it to finish before opening another workspace' }],
    });
  });
});
