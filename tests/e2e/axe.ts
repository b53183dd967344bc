/**
 * axe-core in a page of the real admin: its serious and critical violations, and the moderate
 * ones we hold ourselves to as well, described for a failure message.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const axeSource = fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8');

/** Moderate rules kept anyway: two landmarks of one name leave screen-reader users guessing. */
const ALSO_KEPT = ['landmark-unique'];

interface AxeResult {
  violations: { id: string; impact?: string | null; nodes: { target: unknown }[] }[];
}

/**
 * Runs axe over `selector` (the whole document by default). The script is evaluated through the
 * browser's debugging protocol, which the admin's Content-Security-Policy does not govern, so the
 * page is checked under the policy it really runs with.
 */
export async function axeViolations(page: Page, selector = 'body'): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(
    async ([include, alsoKept]) => {
      const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResult> } }).axe;
      const result = await axe.run({ include: [[include]] }, { resultTypes: ['violations'] });
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical' || alsoKept.includes(v.id))
        .map((v) => `${v.impact} ${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
    },
    [selector, ALSO_KEPT] as const,
  );
}
