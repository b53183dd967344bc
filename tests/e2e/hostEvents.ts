/**
 * What a partner's tag manager hears of the widget: every host event on the page's document
 * (they bubble), each as its name and its detail's values besides the two ids, marked
 * "(elsewhere)" when it did not come from the widget element with both ids.
 */
import { expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';

/** Starts recording on every document `page` loads from now on; the function returned reads what the current one heard. */
export async function recordHostEvents(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    // The init script runs in a framed widget's frame too: only the partner's page (the top window) listens.
    if (window.top !== window) return;
    const seen: string[] = ((window as unknown as { __events: string[] }).__events = []);
    for (const name of ['view', 'start', 'finish', 'page', 'outcome', 'complete']) {
      document.addEventListener(`trial-widget:${name}`, (e) => {
        const { mediaChannelId, screenerId, ...rest } = (e as CustomEvent<Record<string, string>>).detail;
        seen.push(
          `${name}${Object.values(rest)
            .map((v) => ` ${v}`)
            .join('')}${(e.target as Element).hasAttribute('data-trial-widget') && mediaChannelId && screenerId ? '' : ' (elsewhere)'}`,
        );
      });
    }
  });
  return () => page.evaluate(() => (window as unknown as { __events: string[] }).__events);
}

/**
 * What the page hears under the minimal policy must not tell a qualified run from a disqualified
 * one: `listenedRun(qualified)` answers a participant, listening, whose run has reached its end.
 * Each hears view, start and finish, with no problem on the page; both hear the same.
 */
export async function expectSameEventsEitherWay(
  listenedRun: (qualified: boolean) => Promise<{ context: BrowserContext; problems: string[]; events: () => Promise<string[]> }>,
): Promise<void> {
  const heard: string[][] = [];
  for (const qualified of [true, false]) {
    const { context, problems, events } = await listenedRun(qualified);
    await expect.poll(events).toEqual(['view', 'start', 'finish']);
    heard.push(await events());
    expect(problems).toEqual([]);
    await context.close();
  }
  expect(heard[0]).toEqual(heard[1]);
}
