/**
 * The widget's module (widget.js, ./loader.ts, imports it and calls `start`). It finds the
 * snippets' <script> tags, reads their data attributes, and mounts a widget for each. It never
 * throws into the host page: problems show a short message and log one console error.
 */
import { h, render } from 'preact';
import { mount, type MountedWidget } from './mount';
import { Problem } from './components/Card';
import { participantText } from './components/text';
import { readSnippet, type SnippetResult } from './snippet';

// The admin's preview mounts through the module partners load: `(await TrialWidget.ready).mount(...)`.
export { mount };

const MOUNTED = 'data-trial-widget-mounted';
const TARGET = 'data-trial-widget';
const SNIPPET = 'script[src*="widget.js"]';

const isFree = (el: Element | null): el is HTMLElement => !!el?.hasAttribute(TARGET) && !el.hasAttribute(MOUNTED);

/**
 * The widgets mounted here, by element. One whose element left the document (an SPA's route
 * change) is unmounted: its stored run is freed, so the snippet mounted again on the way back
 * continues that run rather than starting a second submission under a key of its own.
 */
const mounted = new Map<HTMLElement, MountedWidget>();
let observer: MutationObserver | undefined;

function unmountRemoved() {
  mounted.forEach((widget, el) => {
    if (!el.isConnected) {
      mounted.delete(el);
      widget.unmount();
    }
  });
}

/**
 * Where a snippet's widget goes: the element its `data-target` selector names; else its own
 * `<div data-trial-widget>` right before or after the script; else the page's first such div
 * not taken yet (snippets mount in document order); else a new one right after the script, or at the start of the body
 * when the script is in `<head>` (a widget in the head would never be seen). Null: the
 * `data-target` names no element free to hold a widget.
 */
function targetFor(script: HTMLScriptElement): HTMLElement | null {
  const selector = script.dataset.target;
  if (selector) {
    // An invalid selector throws: the snippet's start fails with a console line that names it.
    const el = document.querySelector<HTMLElement>(selector);
    return el && !el.shadowRoot && !el.hasAttribute(MOUNTED) ? el : null;
  }
  const free = [script.previousElementSibling, script.nextElementSibling, ...document.querySelectorAll(`[${TARGET}]`)].find(isFree);
  if (free) return free;
  const div = document.createElement('div');
  if (document.body.contains(script)) script.after(div);
  else document.body.prepend(div);
  return div;
}

function mountOne(container: HTMLElement, snippet: SnippetResult, apiOrigin: string) {
  // Every widget's element carries data-trial-widget, the one a data-target named or made here too.
  container.setAttribute(TARGET, '');
  container.setAttribute(MOUNTED, '');
  if (!snippet.ok) {
    console.error(`[trial widget] ${snippet.problem}`);
    render(h(Problem, { message: participantText(snippet.language).badSnippet, language: snippet.language }), container.attachShadow({ mode: 'closed' }));
    return;
  }
  // Each mount keeps its own stored run (./storage.ts: a second widget of a run on the page gets
  // its own key, in mount order, which is document order: the same after a reload).
  mounted.set(container, mount(container, { ...snippet.options, apiOrigin }));
  (observer ??= new MutationObserver(unmountRemoved)).observe(document, { childList: true, subtree: true });
}

function mountAll() {
  unmountRemoved();
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

/** Mounts every snippet not mounted yet, once the document is parsed (mountAll never throws). */
export function start() {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mountAll, { once: true });
  else mountAll();
}
