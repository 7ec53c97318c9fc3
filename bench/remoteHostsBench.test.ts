import { describe, expect, it } from 'vitest';
import { remoteHostsShape } from './remoteHostsBench';

describe('remoteHostsShape', () => {
  it('is 20 hosts × 1,000 destinations × 10 outputs by default, and 4 × 250 × 10 with --quick', () => {
    expect(remoteHostsShape(false, {})).toEqual({ hosts: 20, destinations: 1000, outputs: 10 });
    expect(remoteHostsShape(true, {})).toEqual({ hosts: 4, destinations: 250, outputs: 10 });
  });

  it('takes each size from its environment variable, over --quick, and an empty one as unset', () => {
    expect(remoteHostsShape(true, { DI_BENCH_HOSTS: '2', DI_BENCH_HOST_DESTINATIONS: '30', DI_BENCH_HOST_OUTPUTS: '' })).toEqual({
      hosts: 2,
      destinations: 30,
      outputs: 10,
    });
  });

  it('refuses a size that is not a whole number of at least 1, naming the variable and the value', () => {
    expect(() => remoteHostsShape(false, { DI_BENCH_HOSTS: '0' })).toThrow('DI_BENCH_HOSTS must be a whole number of at least 1, not "0"');
    expect(() => remoteHostsShape(false, { DI_BENCH_HOST_DESTINATIONS: '1e3x' })).toThrow(/DI_BENCH_HOST_DESTINATIONS .* not "1e3x"/);
    expect(() => remoteHostsShape(false, { DI_BENCH_HOST_OUTPUTS: '2.5' })).toThrow(/DI_BENCH_HOST_OUTPUTS/);
  });
});
