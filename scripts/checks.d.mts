// Types of checks.mjs, for its test.
export function checkCommands(scripts: Record<string, string>, names?: string[]): string[];
export function runChecks(commands: string[], options?: { jobs?: number; cwd?: string; print?: (text: string) => void }): Promise<string[]>;
