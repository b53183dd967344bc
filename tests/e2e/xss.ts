/**
 * Stored-XSS probes for browser tests (issue 9, (e)), shared by the admin's and the widget's
 * cases: payloads that, should any of them ever run, leave their key in `window.__xss` or open a
 * dialog; and a check of a rendered page that fails on a payload that ran, on a dialog, on a
 * CSP refusal (a payload that reached the DOM as markup and was only stopped by the policy), and
 * on markup that could run later (an on* attribute, a javascript: URL, an inline script) —
 * in the document and in every shadow root (the widget renders into one).
 */
import type { ConsoleMessage, Dialog, Page } from 'playwright-core';

const record = (key: string) => `window.__xss=(window.__xss||[]).concat('${key}')`;

/** A short payload for names and titles (fits 255 characters with room to spare). */
export const shortPayload = (key: string) => `<img src=x onerror="${record(key)}"><script>${record(`${key}-s`)}</script>`;

/** Every form: event handlers, a script element, an SVG, a javascript: link, a broken-out attribute, an iframe. */
export const fullPayload = (key: string) =>
  [
    `<p>Hello <img src=x onerror="${record(`${key}-img`)}"></p>`,
    `<script>${record(`${key}-script`)}</script>`,
    `<svg onload="${record(`${key}-svg`)}"><circle r="1"/></svg>`,
    `<a href="javascript:${record(`${key}-href`)}">${key} link</a>`,
    `"><img src=x onerror=alert('${key}')>`,
    `<iframe src="javascript:alert('${key}')"></iframe>`,
    `<details open ontoggle="${record(`${key}-toggle`)}">x</details>`,
  ].join('');

export interface XssWatch {
  dialogs: string[];
  cspRefusals: string[];
}

/** Starts watching `page` for dialogs (dismissed) and CSP refusals; call before the first navigation. */
export function watchXss(page: Page): XssWatch {
  const watch: XssWatch = { dialogs: [], cspRefusals: [] };
  page.on('dialog', (dialog: Dialog) => {
    watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  page.on('console', (msg: ConsoleMessage) => {
    if (/Content Security Policy/i.test(msg.text())) watch.cspRefusals.push(msg.text());
  });
  return watch;
}

/** What of the page could run, or did. Empty findings: nothing ran and nothing can. */
export async function xssFindings(page: Page, watch: XssWatch): Promise<{ ran: unknown; dialogs: string[]; cspRefusals: string[]; markup: string[] }> {
  const { ran, markup } = await page.evaluate(() => {
    const found: string[] = [];
    const visit = (root: Document | ShadowRoot) => {
      for (const el of Array.from(root.querySelectorAll('*'))) {
        for (const attr of Array.from(el.attributes)) {
          if (/^on/i.test(attr.name)) found.push(`<${el.tagName.toLowerCase()} ${attr.name}>`);
          if (/^(href|src|action|formaction|xlink:href|data)$/i.test(attr.name) && /^\s*javascript:/i.test(attr.value)) {
            found.push(`<${el.tagName.toLowerCase()} ${attr.name}="${attr.value.slice(0, 40)}">`);
          }
        }
        if (el.tagName === 'SCRIPT' && !(el as HTMLScriptElement).src) found.push(`inline <script>${(el.textContent ?? '').slice(0, 40)}`);
        if (el.shadowRoot) visit(el.shadowRoot);
      }
    };
    visit(document);
    return { ran: (window as unknown as { __xss?: unknown }).__xss ?? null, markup: found };
  });
  return { ran, dialogs: [...watch.dialogs], cspRefusals: [...watch.cspRefusals], markup };
}

export const NO_FINDINGS = { ran: null, dialogs: [], cspRefusals: [], markup: [] };
