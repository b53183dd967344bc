/**
 * The widget's module (widget.js, ./loader.ts, imports it and calls `start`). It finds the
 * snippets' <script> tags, reads their data attributes, and mounts a widget for each. It never
 * throws into the host page: problems show a short message and log one console error.
 */
import { h, render } from 'preact';
import { mount } from './mount';
import { Problem } from './components/App';
import { participantText } from './components/text';
import { readSnippet, type SnippetResult } from './snippet';

// The admin's preview mounts through the module partners load: `(await TrialWidget.ready).mount(...)`.
export { mount };

const MOUNTED = 'data-trial-widget-mounted';
const TARGET = 'data-trial-widget';
const SNIPPET = 'script[src*="widget.js"]';

/** The page's mounted widgets: host element and channel:screener. */
const mounted: [Element, string][] = [];

const isFree = (el: Element | null): el is HTMLElement => !!el?.hasAttribute(TARGET) && !el.hasAttribute(MOUNTED);

/**
 * Where a snippet's widget goes: the element its `data-target` selector names; else its own
 * `<div data-trial-widget>` right before or after the script; else the first such div of the page
 * beside no other snippet; else a new one right after the script, or at the start of the body
 * when the script is in `<head>` (a widget in the head would never be seen). Null: the
 * `data-target` names no element free to hold a widget.
 */
function targetFor(script: HTMLScriptElement): HTMLElement | null {
  const selector = script.dataset.target;
  if (selector) {
    try {
      const el = document.querySelector<HTMLElement>(selector);
      return el && !el.shadowRoot ? el : null;
    } catch {
      return null;
    }
  }
  const free = [script.previousElementSibling, script.nextElementSibling, ...document.querySelectorAll(`[${TARGET}]`)].find(
    (el, i) => isFree(el) && (i < 2 || ![el.previousElementSibling, el.nextElementSibling].some((s) => s !== script && s?.matches(SNIPPET) && !s.hasAttribute(MOUNTED))),
  ) as HTMLElement | undefined;
  if (free) return free;
  const div = document.createElement('div');
  if (document.body.contains(script)) script.after(div);
  else document.body.prepend(div);
  return div;
}

/**
 * This mount's place among the page's widgets of the same channel and screener still on the
 * page: 0 for the first. Snippets mount in document order, so it is stable across reloads of the
 * page, and across an SPA's route changes (which remove the old widget's element): a stored run
 * is found again (./storage.ts keeps two live mounts from ever sharing a key).
 */
const mountIndex = (run: string) => mounted.filter((m) => m[1] === run && m[0].isConnected).length;

function mountOne(container: HTMLElement, snippet: SnippetResult, apiOrigin: string) {
  // Every widget's element carries data-trial-widget, the one a data-target named or made here too.
  container.setAttribute(TARGET, '');
  container.setAttribute(MOUNTED, '');
  if (!snippet.ok) {
    console.error(`[trial widget] ${snippet.problem}`);
    const root = container.shadowRoot ?? container.attachShadow({ mode: 'open' });
    render(h(Problem, { message: participantText(snippet.language).badSnippet, language: snippet.language }), root);
    return;
  }
  const run = `${snippet.options.mediaChannelId}:${snippet.options.screenerId}`;
  const index = mountIndex(run);
  mounted.push([container, run]);
  container.setAttribute('data-trial-widget-mount', String(index));
  // The first widget of a run keeps the plain storage key; a second one on the page its own.
  mount(container, { ...snippet.options, apiOrigin, mountKey: index ? String(index) : undefined });
}

function mountAll() {
  for (const script of document.querySelectorAll<HTMLScriptElement>(SNIPPET)) {
    if (script.hasAttribute(MOUNTED)) continue;
    script.setAttribute(MOUNTED, '');
    try {
      const target = targetFor(script);
      if (target) mountOne(target, readSnippet(script), new URL(script.src, document.baseURI).origin);
      else console.error(`[trial widget] data-target "${script.dataset.target}" matches no free element on this page.`);
    } catch (error) {
      console.error('[trial widget] could not start:', error);
    }
  }
}

/** Mounts every snippet not mounted yet, once the document is parsed. */
export function start() {
  try {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mountAll, { once: true });
    else mountAll();
  } catch (error) {
    console.error('[trial widget] could not start:', error);
  }
}
