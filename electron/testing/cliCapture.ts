// The command line run in-process for its tests, its output captured: one copy for every
// electron/cli/*Command test. Given `answer`, it is a terminal that answers every question with it
// (the questions are kept in `asked`); without, it prints into a pipe and asks nothing.

import type { CliIo } from '../cli/command';
import { runCli } from '../cli/run';

export interface CapturedCli {
  code: number;
  stdout: string;
  stderr: string;
  /** The questions asked on the terminal (confirmations), in order. */
  asked: string[];
}

export async function runCliCaptured(
  argv: string[],
  { cwd, env = {}, answer }: { cwd: string; env?: CliIo['env']; answer?: string },
): Promise<CapturedCli> {
  let stdout = '';
  let stderr = '';
  const asked: string[] = [];
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    isTerminal: answer !== undefined,
    ask: answer !== undefined ? async (question) => (asked.push(question), answer) : undefined,
    env,
    cwd,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr, asked };
}
