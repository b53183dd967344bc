/** Debian's Chromium driven by playwright-core (no browser download). */
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * On partners' pages the widget's shadow root is closed, which Playwright's locators (and
 * `element.shadowRoot`) cannot enter. The tests reach in the way any script that runs before the
 * widget could: this init script makes every shadow root open. Every context of a browser from
 * `launchBrowser` gets it, except one from `closedRootContext`, which sees the page as it ships.
 */
function openShadowRoots() {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init: ShadowRootInit) {
    return attach.call(this, { ...init, mode: 'open' });
  };
}

const unpatched = new WeakMap<Browser, Browser['newContext']>();

/** A context of `browser` without the test's way into closed shadow roots: what a partner page's scripts see. */
export function closedRootContext(browser: Browser, options?: Parameters<Browser['newContext']>[0]): Promise<BrowserContext> {
  return (unpatched.get(browser) ?? browser.newContext.bind(browser))(options);
}

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  unpatched.set(browser, newContext);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.addInitScript(openShadowRoots);
    return context;
  };
  // A page of its own context (closed with the page): the script is added before its first navigation.
  browser.newPage = async (options) => {
    const page = await newPage(options);
    await page.context().addInitScript(openShadowRoots);
    return page;
  };
  return browser;
}

/**
 * One browser for a test file, launched before its tests and closed after them: call it at the
 * file's top level, and the function it returns gives the browser inside the tests.
 */
export function browserForFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not launched yet: use it inside a test');
    return browser;
  };
}
