/**
 * widget.js, the file partners' snippets name: a classic script (so `<script async src>` keeps
 * working and `document.currentScript` tells it where it came from) that imports the widget's
 * module from the same origin and starts it. The module is content-hashed and cached for a year;
 * only this small file is revalidated. `window.TrialWidget.ready` (the one global) resolves to the
 * module, whose `mount` the admin's preview uses.
 *
 * While the module loads, widget.js already asks for the start of the run its snippet names
 * (participant-start, a simple GET the browser sends without a preflight) and keeps the answer
 * in `TrialWidget.early` by address; the module's first call to that address takes it
 * (earlyFetch). So the first question waits on two requests in a row, not three.
 *
 * A framed channel's snippet (`data-isolation="frame"`) loads no widget into the partner's page:
 * widget.js imports the small frame builder instead (./frame.ts, its own content-hashed file, so
 * pages without a frame never load it), which builds an iframe of the product's /embed/frame.
 */
import type { WidgetGlobal } from './mountOptions';
import type * as frameExports from './frame';

type FrameModule = typeof frameExports;

/** Imports `entry` (relative to this script's address) once per page and starts it, or for a framed snippet `frameEntry`; every snippet's script calls this. */
export function loadWidget(entry: string, script: HTMLScriptElement | null, host: { TrialWidget?: WidgetGlobal }, frameEntry: string): void {
  const api = (host.TrialWidget = host.TrialWidget || {});
  const src = script?.src || document.querySelector<HTMLScriptElement>('script[src*="widget.js"]')?.src || location.href;
  const id = (name: string) => script?.getAttribute(name)?.trim() ?? '';
  if (script && id('data-isolation') == 'frame') {
    // Marked at once: the widget's module, if another snippet loaded it, never mounts this one in the page.
    script.setAttribute('data-trial-widget-mounted', '');
    return void import(/* @vite-ignore */ new URL(frameEntry, src).href).then((m: FrameModule) => m.frame(script, src));
  }
  const [channel, screener] = [id('data-media-channel-id'), id('data-screener-id')];
  // As ../core/participant/start.ts writes the address (ids as ./snippet.ts accepts them, which need no escaping).
  if (/^[\w-]{1,64}$/.test(channel) && /^[\w-]{1,64}$/.test(screener)) {
    const url = `${new URL(src).origin}/api/o-forms/participant-start?screenerId=${screener}&mediaChannelId=${channel}`;
    const early = (api.early = api.early || {});
    early[url] = early[url] || fetch(url, { headers: { Accept: 'application/vnd.api+json' }, credentials: 'omit' });
  }
  api.ready = api.ready || import(/* @vite-ignore */ new URL(entry, src).href);
  // A later snippet (a second widget, one an SPA added) starts again: start() mounts what is new.
  api.ready.then(
    (widget) => widget.start(),
    (error: unknown) => console.error('[trial widget] could not load the widget from', src, error),
  );
}

/** fetch, except that a GET widget.js already sent (loadWidget) is answered by that request, once. */
export const earlyFetch: typeof fetch = (input, init) => {
  const early = (window as { TrialWidget?: WidgetGlobal }).TrialWidget?.early;
  const sent = early?.[String(input)];
  if (!sent || (init?.method ?? 'GET') !== 'GET') return fetch(input, init);
  delete early![String(input)];
  return sent;
};
