// What a spec holds the app shell to at any size: the document is never taller or wider than the
// window (only panes scroll), and what a spec is told is "in view" is inside its scrolling pane.

import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** The smallest window the app is laid out for (issue 28). */
export const SMALL_WINDOW = { width: 1024, height: 640 };

/** The document fits the window: no page scroll either way. */
export async function expectShellFits(page: Page): Promise<void> {
  const sizes = await page.evaluate(
    '({ height: document.scrollingElement.scrollHeight, width: document.scrollingElement.scrollWidth, innerHeight, innerWidth })',
  );
  const { height, width, innerHeight, innerWidth } = sizes as Record<string, number>;
  expect(height, 'the document is taller than the window').toBeLessThanOrEqual(innerHeight!);
  expect(width, 'the document is wider than the window').toBeLessThanOrEqual(innerWidth!);
}
