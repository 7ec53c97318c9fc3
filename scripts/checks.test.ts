// npm test's checks run package.json's own typecheck and lint commands, two at a time, and fail when any does.

import { describe, expect, it } from 'vitest';
import { checkCommands, runChecks } from './checks.mjs';

const node = (code: string) => `"${process.execPath}" -e "${code}"`;

describe('the checks step of npm test', () => {
  it('takes its commands from the typecheck and lint scripts, split on &&', () => {
    expect(checkCommands({ typecheck: 'tsc -p a.json && tsc -p b.json', lint: 'eslint . && prettier --check .' })).toEqual([
      'tsc -p a.json',
      'tsc -p b.json',
      'eslint .',
      'prettier --check .',
    ]);
    expect(() => checkCommands({ typecheck: 'tsc' })).toThrow('no "lint" script');
  });

  it('runs every command even after one fails, and names the ones that failed with their output', async () => {
    const printed: string[] = [];
    const failed = await runChecks([node('process.exit(3)'), node("console.log('said')"), node('process.exit(1)')], {
      jobs: 2,
      print: (text) => printed.push(text),
    });
    expect(failed).toEqual([node('process.exit(3)'), node('process.exit(1)')]);
    expect(printed).toHaveLength(3);
    expect(printed.join('')).toMatch(/^ok \(\d+\.\d s\): .*\nsaid\n/m);
  });
});
