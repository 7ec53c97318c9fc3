import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { guardOutput } from './outputStream';

function failing(code: string) {
  const stream = new PassThrough();
  const written: string[] = [];
  stream.on('data', (chunk) => written.push(String(chunk)));
  const fail = () => stream.emit('error', Object.assign(new Error(`write ${code}`), { code }));
  return { stream, written, fail };
}

describe('the output of the command line', () => {
  it('drops the rest quietly once the reader has gone (EPIPE), and never throws', () => {
    const { stream, written, fail } = failing('EPIPE');
    const reports: string[] = [];
    const output = guardOutput(stream, (message) => reports.push(message));
    output.write('first line\n');
    fail();
    expect(() => output.write('second line\n')).not.toThrow();
    expect(output.isOpen).toBe(false);
    expect(written.join('')).toBe('first line\n');
    expect(reports).toEqual([]);
  });

  it('says once, in one line, when writing fails for another reason (a full disk behind > file)', () => {
    const { stream, fail } = failing('ENOSPC');
    const reports: string[] = [];
    const output = guardOutput(stream, (message) => reports.push(message));
    fail();
    fail();
    output.write('more');
    expect(reports).toEqual(['cannot write the output any more (ENOSPC); the rest is dropped']);
  });

  it('opens a stream given as a function at its first write only, and guards it from then on', async () => {
    const { stream, written, fail } = failing('EPIPE');
    let opened = 0;
    const output = guardOutput(() => (opened++, stream));
    expect(output.isOpen).toBe(true);
    expect(opened).toBe(0);
    output.write('first line\n');
    output.write('second line\n');
    expect(opened).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    fail();
    expect(() => output.write('third line\n')).not.toThrow();
    expect(output.isOpen).toBe(false);
    expect(written.join('')).toBe('first line\nsecond line\n');
  });
});
