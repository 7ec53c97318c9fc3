// Helpers the UI specs share: wait for the demo to be listed and scanned, pick a destination and a
// tab as a user does, screenshots in both themes, and axe's serious findings. No assertions of their own
// beyond waiting for what a user would wait for.

import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Waits until the list shows every destination with its scanned status. */
export async function waitForScan(page: Page): Promise<void> {
  await expect(page.getByRole('listbox', { name: 'Destinations' })).toBeVisible();
  await expect(page.getByTestId('list-count')).not.toContainText('scanning', { timeout: 15_000 });
}

export async function openDestination(page: Page, id: string): Promise<void> {
  const search = page.getByRole('searchbox', { name: /Search destinations/ });
  await search.fill(id);
  await page.getByRole('option', { name: new RegExp(`^${id}\\b`) }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(id);
}

export async function openTab(
  page: Page,
  name: 'Overview' | 'Outputs' | 'Compare' | 'Raw state' | 'Actions' | 'Backups' | 'History',
): Promise<void> {
  await page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
  await expect(page.getByRole('tab', { name: new RegExp(`^${name}`) })).toHaveAttribute('aria-selected', 'true');
}

/** Serious and critical axe findings, as short lines (empty when none). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 3)
          .join(', ')})`,
    );
}

export type Save = (page: Page, name: string) => Promise<void>;

/** The same view in the light and the dark theme. */
export async function shootBothThemes(page: Page, save: Save, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await save(page, `ui-${name}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Applies the normal replace planned in the Actions tab as a user does: the button that names the counts
 * ("Replace: create 1 file, … from handbook-2026-06…"), then Enter in the confirmation dialog (its confirm
 * button, the same counts, has the focus). `counts` are the words of shared/planCounts.ts the spec expects
 * both buttons to read exactly; without them, any "Replace: …" button.
 */
export async function confirmNormalReplace(page: Page, counts?: string): Promise<void> {
  const words = counts === undefined ? '.+' : escapeRegExp(counts);
  await page
    .locator('.tab-panel')
    .getByRole('button', { name: new RegExp(`^Replace: ${words} from .+…$`) })
    .click();
  const dialog = page.getByRole('dialog', { name: /^Replace .+\?$/ });
  await expect(dialog.getByRole('button', { name: new RegExp(`^Replace: ${words}$`) })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
