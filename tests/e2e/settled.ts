/** Waiting for an admin screen to have its data: nothing on it still loading. */
import type { Page } from 'playwright-core';

/**
 * Resolves once no table, form or select on the page is busy and no loading indicator shows.
 * A screen's first render is a frame of "Loading…" placeholders (a list's one placeholder row
 * included), so measuring or running axe before this measures whatever the server had answered
 * by then, which under load is less than when the machine is quiet.
 */
export async function settled(page: Page, timeout = 15_000): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .loading-status[role="status"]'), undefined, { timeout, polling: 50 });
}
