// Types of cliReference.mjs, for the TypeScript that imports it (scripts/cliReference.test.ts).
export function commandNames(usageText: string): string[];
export function updateReference(doc: string, helps: Map<string, string>): string;
export function builtHelps(root: string): Map<string, string>;
