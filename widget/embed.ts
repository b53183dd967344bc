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

function containerFor(script: HTMLScriptElement): HTMLElement {
  const marked = document.querySelector<HTMLElement>(`[data-trial-widget]:not([${MOUNTED}])`);
  if (marked) return marked;
  const div = document.createElement('div');
  script.insertAdjacentElement('afterend', div);
  return div;
}

function mountOne(container: HTMLElement, snippet: SnippetResult, apiOrigin: string) {
  container.setAttribute(MOUNTED, '');
  if (!snippet.ok) {
    console.error(`[trial widget] ${snippet.problem}`);
    const root = container.shadowRoot ?? container.attachShadow({ mode: 'open' });
    render(h(Problem, { message: participantText(snippet.language).badSnippet, language: snippet.language }), root);
    return;
  }
  mount(container, { ...snippet.options, apiOrigin });
}

function mountAll() {
  const scripts = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src*="widget.js"]')).filter(
    (s) => !s.hasAttribute(MOUNTED),
  );
  for (const script of scripts) {
    script.setAttribute(MOUNTED, '');
    try {
      const apiOrigin = new URL(script.src, document.baseURI).origin;
      mountOne(containerFor(script), readSnippet(script), apiOrigin);
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
