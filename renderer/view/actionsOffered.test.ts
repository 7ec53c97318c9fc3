import { describe, expect, it } from 'vitest';
import { actionsOffered } from './actionsOffered';

describe('actionsOffered', () => {
  it('offers an unmanaged destination neither a normal replace nor Repair, but the folder compare and Adopt, then the forced replace', () => {
    const offered = actionsOffered('unmanaged');
    expect(offered).toMatchObject({ replace: false, repair: false, adopt: true });
    expect(offered.why).toContain('Adopt writes only the state file');
    expect(offered.why).toContain('a forced replace publishes here');
  });

  it('offers an invalid destination neither, and points at the Raw state tab', () => {
    const offered = actionsOffered('invalid');
    expect(offered).toMatchObject({ replace: false, repair: false, adopt: false });
    expect(offered.why).toContain('Raw state tab');
  });

  it('offers an empty destination its first publish but not Repair', () => {
    expect(actionsOffered('empty')).toMatchObject({ replace: true, repair: false });
  });

  it('offers a managed destination, and one not read yet, every section with nothing to explain', () => {
    expect(actionsOffered('managed')).toEqual({ replace: true, repair: true, adopt: false });
    expect(actionsOffered(undefined)).toEqual({ replace: true, repair: true, adopt: false });
  });
});
