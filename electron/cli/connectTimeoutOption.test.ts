// `--connect-timeout SECONDS` (hostPaths.ts): a number of seconds above 0 and at most a day, else
// refused naming the option by every command that takes it, before any work, also where no path is on a host.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../testing/cliCapture';
import { tempDirForTest } from '../testing/tempDirs';
import { CliError } from './command';
import { connectTimeoutMs } from './hostPaths';

describe('--connect-timeout', () => {
  it('is the connection default when not given, and seconds (whole or not) in milliseconds when given', () => {
    expect(connectTimeoutMs({})).toBeUndefined();
    expect(connectTimeoutMs({ 'connect-timeout': '60' })).toBe(60_000);
    expect(connectTimeoutMs({ 'connect-timeout': '2.5' })).toBe(2_500);
    expect(connectTimeoutMs({ 'connect-timeout': '86400' })).toBe(86_400_000);
    expect(connectTimeoutMs({ 'connect-timeout': '0.0001' })).toBe(1);
  });

  it('refuses zero, a negative, a word, an exponent, more than a day and a missing value, naming the option', () => {
    for (const value of ['0', '0.0', '-5', 'ten', '1e3', '86400.5', '', ' 5', true])
      expect(() => connectTimeoutMs({ 'connect-timeout': value })).toThrow(/^--connect-timeout must be a number of seconds above 0/);
  });

  it('answers any value with a deadline from 1 ms to a day or a refusal naming it, never anything else', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.float().map(String), fc.nat().map(String)), (value) => {
        try {
          const ms = connectTimeoutMs({ 'connect-timeout': value })!;
          expect(ms).toBeGreaterThanOrEqual(1);
          expect(ms).toBeLessThanOrEqual(86_400_000);
          expect(Number(value)).toBeGreaterThan(0);
        } catch (error) {
          expect(error).toBeInstanceOf(CliError);
          expect((error as Error).message).toMatch(/^--connect-timeout must be/);
        }
      }),
    );
  });

  it('is refused by scan before anything is read or contacted', async () => {
    await expectRefused('scan', 'soon');
  });

  it('is refused by inspect of a local path too, where no host is contacted', async () => {
    await expectRefused('inspect', '0');
  });
});

/** `COMMAND TEMPDIR --connect-timeout VALUE` exits 2 naming the option and the value, and prints nothing else. */
async function expectRefused(command: string, value: string): Promise<void> {
  const dir = await tempDirForTest('connect-timeout-test');
  const result = await runCliCaptured([command, dir, '--connect-timeout', value], { cwd: dir });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(
    `--connect-timeout must be a number of seconds above 0 and at most 86400 (a day), not ${JSON.stringify(value)}`,
  );
  expect(result.stdout).toBe('');
}
