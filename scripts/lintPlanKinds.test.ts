// Plan kinds as modules, as eslint.config.js holds it: a `mode` or `kind` compared to a plan kind's
// string (or switched on with one as a case) fails outside the kinds' tables, for every kind there is;
// the same names compared to other strings, a plan's decision (`action`) and the tables themselves
// pass. Lints in-memory snippets through ESLint's own API with the project's config, at real paths.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { appliedKindSchema } from '../shared/planSchema';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KINDS = appliedKindSchema.options.flatMap((option) => ('options' in option ? option.options : [option.value]));

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, overrideConfigFile: path.join(ROOT, 'eslint.config.js') });
});

/** The kind-comparison messages for one snippet linted as if it were `file`; a parse error fails the test. */
async function kindErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  expect(result!.messages.filter((message) => message.fatal)).toEqual([]);
  return result!.messages.filter((message) => /plan's kind/.test(message.message)).map((message) => message.message);
}

const DECLARED =
  'declare const plan: { mode: string; action: string };\ndeclare const run: { mode: string } | undefined;\ndeclare const mode: string;\ndeclare const kind: string;\n';
const snippet = (expression: string) => `${DECLARED}export const answer = ${expression};\n`;

describe('a plan kind compared to its string', () => {
  it('fails for every kind there is, on a property, an optional property and a variable, either way round', async () => {
    for (const kind of KINDS) {
      for (const expression of [`plan.mode === '${kind}'`, `run?.mode !== '${kind}'`, `'${kind}' == mode`, `kind != '${kind}'`])
        expect(await kindErrors('renderer/components/BulkPanel.tsx', snippet(expression)), expression).toHaveLength(1);
    }
  });

  it('fails in every room of the app: the engine, the service, the CLI, shared/ and the renderer', async () => {
    for (const file of [
      'electron/replace/applyPlan.ts',
      'electron/service/consentGate.ts',
      'electron/cli/applyFlow.ts',
      'shared/planCounts.ts',
      'renderer/state/bulk.ts',
    ])
      expect(await kindErrors(file, snippet("plan.mode === 'repair'")), file).toHaveLength(1);
  });

  it('fails as a case of a switch on the kind', async () => {
    const code = `${DECLARED}export function title() {\n  switch (plan.mode) {\n    case 'force':\n      return 'Forced';\n    default:\n      return '';\n  }\n}\n`;
    expect(await kindErrors('electron/cli/applyFlow.ts', code)).toHaveLength(1);
  });

  it("passes on a fact read from the table, another field's word, and a mode that is no plan's", async () => {
    for (const expression of [
      "plan.action === 'replace'",
      "mode === 'unified'",
      "kind === 'file'",
      'plan.mode === run?.mode',
      'run?.mode === undefined',
    ])
      expect(await kindErrors('renderer/components/BulkPanel.tsx', snippet(expression)), expression).toEqual([]);
  });

  it('passes in the tables of the kinds and in tests', async () => {
    for (const file of [
      'shared/planKinds.ts',
      'renderer/view/bulkModes.ts',
      'electron/replace/kinds/index.ts',
      'renderer/view/bulkPlan.test.ts',
    ])
      expect(await kindErrors(file, snippet("plan.mode === 'restore'")), file).toEqual([]);
  });
});
