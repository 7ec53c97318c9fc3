// Reads one answer from the terminal with readline; loaded only when a question is asked (terminalQuestion.ts).
import { createInterface } from 'node:readline/promises';

export async function readAnswer(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}
