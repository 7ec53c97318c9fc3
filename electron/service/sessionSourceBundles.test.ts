// Paths the operator types (Open, Compare, Actions) and the workspace's own source bundles, through the
// Session as both transports call it, on a real demo workspace in a temp folder.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDemoFixture } from '../testing/demoFixture';
import { Session } from './session';
import { callOk as call } from '../testing/sessionCalls';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function demoSession() {
  const demo = await makeDemoFixture('inspector-bundles-');
  const session = new Session({ transport: 'http', initialWorkspace: demo.workspaceFile });
  cleanups.push(async () => {
    await session.close();
    await demo.remove();
  });
  return { dir: demo.dir, root: demo.root, session };
}

describe('paths the operator types', () => {
  it("compare and plan read a relative source from the workspace's folder, not the working directory", async () => {
    const { root, session } = await demoSession();
    expect(process.cwd()).not.toBe(root);
    const compared = await call(session, 'compare', { destination: 'docs-eu', source: 'sources/handbook-2026-05' });
    expect(compared.sourcePath).toBe(path.join(root, 'sources', 'handbook-2026-05'));
    expect(compared.comparison.decision).toBe('skip_newer');
    const planned = await call(session, 'planReplace', { destination: 'docs-eu', mode: 'force', source: './sources/handbook-2026-05' });
    expect(planned.plan.sourcePath).toBe(path.join(root, 'sources', 'handbook-2026-05'));
  });

  it('~ is the home of the user running the engine, for a source and for a workspace to open', async () => {
    const { dir, root, session } = await demoSession();
    const home = path.join(dir, 'home');
    await fs.mkdir(home);
    await fs.cp(path.join(root, 'sources', 'handbook-2026-05'), path.join(home, 'bundles', 'old'), { recursive: true });
    const before = process.env.HOME;
    process.env.HOME = home;
    try {
      const compared = await call(session, 'compare', { destination: 'docs-eu', source: '~/bundles/old' });
      expect(compared.sourcePath).toBe(path.join(home, 'bundles', 'old'));
      await fs.mkdir(path.join(home, 'sites', 'a'), { recursive: true });
      const opened = await call(session, 'openWorkspace', { path: '~/sites' });
      expect(opened.root).toBe(path.join(home, 'sites'));
      expect(opened.destinations.map((d) => d.id)).toEqual(['a']);
      // Relative to the workspace now open: ~/sites.
      const again = await call(session, 'openWorkspace', { path: 'a' });
      expect(again.root).toBe(path.join(home, 'sites', 'a'));
    } finally {
      process.env.HOME = before;
    }
  });

  it('a path that names nothing is refused with what was typed, as a source and as a workspace', async () => {
    const { session } = await demoSession();
    expect(await session.call('compare', { destination: 'docs-eu', source: '~alice/bundle' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_source', message: expect.stringContaining('source bundle "~alice/bundle"') },
    });
    expect(await session.call('openWorkspace', { path: '~bob' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_workspace', details: { file: '~bob', issues: [{ code: 'invalid_path' }] } },
    });
  });
});

describe('planning from another bundle than the configured one', () => {
  it('an older bundle: the normal replace plans nothing (skip_newer), the forced replace rolls back and names the bundle', async () => {
    const { root, session } = await demoSession();
    const older = path.join(root, 'sources', 'handbook-2026-05');
    const normal = await call(session, 'planReplace', { destination: 'docs-eu', mode: 'replace', source: 'sources/handbook-2026-05' });
    expect(normal.plan).toMatchObject({ action: 'nothing', sourcePath: older, comparison: { decision: 'skip_newer', rule: 7 } });
    expect(normal.plan.comparison?.explanation).toMatchObject({ normalReplaceAllowed: false });

    const forced = await call(session, 'planReplace', { destination: 'docs-eu', mode: 'force', source: 'sources/handbook-2026-05' });
    expect(forced.plan).toMatchObject({ action: 'replace', sourcePath: older, comparison: { decision: 'skip_newer' } });
    expect(forced.plan.newState?.source.manifest.created).toBe('2026-05-01T09:00:00Z');
    // Only with its typed confirmation.
    expect(await session.call('applyPlan', { confirmed: true, planId: forced.planId })).toMatchObject({
      ok: false,
      error: { code: 'confirmation_required' },
    });
    const { job } = await call(session, 'applyPlan', { confirmed: true, planId: forced.planId, confirm: forced.confirmText });
    const result = await new Promise<unknown>((resolve) => {
      const off = session.onEvent((event) => {
        if (event.event === 'result' && event.data.job === job) {
          off();
          resolve(event.data.result);
        }
      });
    });
    expect(result).toMatchObject({ ok: true });
    const state = JSON.parse(await fs.readFile(path.join(root, 'destinations', 'docs-eu', '.distributor.json'), 'utf8'));
    expect(state.source.manifest.created).toBe('2026-05-01T09:00:00Z');
  });
});

describe('listSourceBundles', () => {
  it("lists the demo's bundles with id, created and digest, grouped by id and newest first, and who is configured with each", async () => {
    const { root, session } = await demoSession();
    const list = await call(session, 'listSourceBundles', {});
    expect(list.root).toBe(root);
    expect(list.truncated).toBe(false);
    const handbook = list.bundles.filter((bundle) => bundle.manifest?.id === 'handbook');
    expect(handbook.length).toBeGreaterThanOrEqual(2);
    const created = handbook.map((bundle) => Date.parse(bundle.manifest!.created));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    const old = list.bundles.find((bundle) => bundle.shownPath === 'sources/handbook-2026-05')!;
    expect(old).toMatchObject({
      path: path.join(root, 'sources', 'handbook-2026-05'),
      manifest: { id: 'handbook', digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), fileCount: expect.any(Number) },
    });
    expect(old.configuredFor).toContain('docs-apac');
    // Nothing inside a destination is offered as a bundle.
    expect(list.bundles.every((bundle) => bundle.shownPath.startsWith('sources/'))).toBe(true);
    expect(list.bundles).toHaveLength(7);
  });

  it('lists an invalid manifest with its problem, a configured source outside the folder, and never searches a linked folder', async () => {
    const { dir, root, session } = await demoSession();
    await fs.mkdir(path.join(root, 'sources', 'broken'));
    await fs.writeFile(path.join(root, 'sources', 'broken', 'manifest.json'), '{"schema_version": 1, "id": ""}');
    const outside = path.join(dir, 'elsewhere');
    await fs.cp(path.join(root, 'sources', 'runbook'), path.join(outside, 'runbook-copy'), { recursive: true });
    await fs.symlink(outside, path.join(root, 'linked'));
    const file = path.join(root, 'distributor-inspector.json');
    const config = JSON.parse(await fs.readFile(file, 'utf8'));
    config.destinations.push({ path: 'destinations/new-one', source: '../elsewhere/runbook-copy/manifest.json' });
    await fs.writeFile(file, JSON.stringify(config));
    await call(session, 'openWorkspace', { path: file });

    const list = await call(session, 'listSourceBundles', {});
    const broken = list.bundles.find((bundle) => bundle.shownPath === 'sources/broken')!;
    expect(broken.manifest).toBeUndefined();
    expect(broken.problem).toMatch(/^manifest\.json: /);
    expect(list.bundles.at(-1)).toBe(broken);
    const copy = list.bundles.filter((bundle) => bundle.path === path.join(outside, 'runbook-copy'));
    expect(copy).toHaveLength(1);
    expect(copy[0]).toMatchObject({ shownPath: path.join(outside, 'runbook-copy'), configuredFor: ['destinations/new-one'] });
    expect(list.bundles.some((bundle) => bundle.shownPath.startsWith('linked'))).toBe(false);
  });

  it('needs an open workspace', async () => {
    const session = new Session({ transport: 'http' });
    cleanups.push(() => session.close());
    expect(await session.call('listSourceBundles', {})).toMatchObject({ ok: false, error: { code: 'no_workspace' } });
  });
});
