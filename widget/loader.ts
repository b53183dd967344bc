/**
 * widget.js, the file partners' snippets name: a classic script (so `<script async src>` keeps
 * working and `document.currentScript` tells it where it came from) that imports the widget's
 * module from the same origin and starts it. The module is content-hashed and cached for a year;
 * only this small file is revalidated. `window.TrialWidget.ready` (the one global) resolves to the
 * module, whose `mount` the admin's preview uses.
 */
import type { WidgetGlobal } from './mountOptions';

/** Imports `entry` (relative to this script's address) once per page and starts it; every snippet's script calls this. */
export function loadWidget(entry: string, script: HTMLScriptElement | null, host: { TrialWidget?: WidgetGlobal }): void {
  const api = (host.TrialWidget = host.TrialWidget || {});
  const src = script?.src || document.querySelector<HTMLScriptElement>('script[src*="widget.js"]')?.src || location.href;
  api.ready = api.ready || import(/* @vite-ignore */ new URL(entry, src).href);
  // A later snippet (a second widget, one an SPA added) starts again: start() mounts what is new.
  api.ready.then(
    (widget) => widget.start(),
    (error: unknown) => console.error('[trial widget] could not load the widget from', src, error),
  );
}
