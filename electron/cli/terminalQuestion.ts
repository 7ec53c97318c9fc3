// The CLI's confirmation question on a terminal (a replace or a restore without --yes): the answer is
// one line read from stdin. readline is loaded by the first question (terminalReadline.ts), not at
// every start: it was ~6 ms of the CPU of a cold `inspect`.

export async function askOnTerminal(question: string): Promise<string> {
  const { readAnswer } = await import('./terminalReadline');
  return readAnswer(question);
}
