import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jumpHostProblem, localSshFileProblem, sshOptionsOf } from './hostSettings';

describe('host ssh settings', () => {
  it('accepts an absolute or home-relative key file and refuses relative, dotted or option-like ones', () => {
    expect(localSshFileProblem('/home/ops/.ssh/id_ed25519')).toBeUndefined();
    expect(localSshFileProblem('~/.ssh/id_ed25519')).toBeUndefined();
    expect(localSshFileProblem('-oProxyCommand=evil')).toMatch(/must be absolute/);
    expect(localSshFileProblem('keys/id')).toMatch(/must be absolute/);
    expect(localSshFileProblem('/home/ops/../root/.ssh/id')).toMatch(/no \. or \.\./);
    expect(localSshFileProblem('/home/ops/id\n-F/tmp/x')).toMatch(/control character/);
    expect(localSshFileProblem('/home//id')).toMatch(/empty segment/);
  });

  it('accepts a jump host as [user@]host[:port] and refuses an option or a command', () => {
    expect(jumpHostProblem('bastion.example.com')).toBeUndefined();
    expect(jumpHostProblem('ops@bastion:2222')).toBeUndefined();
    expect(jumpHostProblem('-oProxyCommand=touch /tmp/x')).toMatch(/not a host name/);
    expect(jumpHostProblem('bastion:70000')).toMatch(/port "70000" is not a number from 1 to 65535/);
  });

  it('turns the settings into -F, -i and -J, expanding ~/ with the home folder', () => {
    expect(sshOptionsOf({ sshConfig: '~/.ssh/ci', identityFile: '/k/id', jumpHost: 'ops@bastion' }, '/home/ops/')).toEqual([
      '-F',
      '/home/ops/.ssh/ci',
      '-i',
      '/k/id',
      '-J',
      'ops@bastion',
    ]);
    expect(sshOptionsOf({}, '/home/ops')).toEqual([]);
  });

  it('never lets an accepted value start with "-" (ssh would read it as an option), whatever the text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        if (localSshFileProblem(text) === undefined) expect(text.startsWith('/') || text.startsWith('~/')).toBe(true);
        if (jumpHostProblem(text) === undefined) expect(text.startsWith('-')).toBe(false);
      }),
    );
  });
});
