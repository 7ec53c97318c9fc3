// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiResult } from '../shared/api';
import { App } from './App';
import { installFakeBridge } from './testing/fakeBridge';

let answerAppInfo: (answer: ApiResult<unknown>) => void = () => undefined;
const appInfo = new Promise<ApiResult<unknown>>((resolve) => (answerAppInfo = resolve));
installFakeBridge((method) => (method === 'appInfo' ? appInfo : undefined));
afterEach(cleanup);

describe('the app at its start', () => {
  it('asks for the open form only once the engine said it has no workspace open', async () => {
    render(<App />);
    expect(screen.getByText('Opening…')).toBeTruthy();
    expect(screen.queryByLabelText('Workspace folder or distributor-inspector.json')).toBeNull();
    await act(async () =>
      answerAppInfo({ ok: true, value: { version: '0.1.0', transport: 'electron', command: 'distributor-inspector' } }),
    );
    // The form's chunk loads when first wanted (transformed on demand here: seconds on a loaded machine).
    expect(await screen.findByLabelText('Workspace folder or distributor-inspector.json', {}, { timeout: 30_000 })).toBeTruthy();
  });
});
