/**
 * A framed channel's widget on the partner's page (`data-isolation="frame"`; widget.js imports
 * this file instead of the widget's module). It builds an iframe of the product's /embed/frame
 * (server/web/framePage.ts), where the same widget runs out of reach of the page's scripts, and
 * listens to that frame alone (its window, the product's origin) for two things: its height, so
 * the iframe fits its content (never below the height the snippet's element reserves: no
 * scrollbar, no layout shift), and the host events the channel's events policy lets out,
 * dispatched again on the snippet's element, bubbling, as the unframed widget dispatches them.
 */

const MOUNTED = 'data-trial-widget-mounted';
/** The snippet's attributes the frame's page takes (server/channels/frame.ts parseFrameQuery). */
const FORWARDED = /^data-(media-channel-id|screener-id|language|field-)/;

/**
 * The widget of `script` in an iframe of the origin of `src` (widget.js's address), in the snippet's own element (the `<div
 * data-trial-widget>` right before its script, else a new one there). Both are marked mounted:
 * the module, if another snippet on the page loads it, leaves them alone.
 */
export function frame(script: HTMLScriptElement, src: string): HTMLIFrameElement {
  const origin = new URL(src).origin;
  // The frame's query: the snippet's ids, language and hidden fields, the page's origin (the only
  // one the frame posts to) and its path, the page the run names (never its query or fragment).
  const query = new URLSearchParams({ origin: location.origin, path: location.pathname });
  for (const { name, value } of script.attributes) if (FORWARDED.test(name)) query.set(name.slice(5), value);
  // The page's campaign parameters: the widget in the frame reads them from its own address, as it would from the page's.
  for (const [name, value] of new URLSearchParams(location.search)) if (name.startsWith('utm_')) query.set(name, value);
  let box = script.previousElementSibling;
  if (!box?.matches('[data-trial-widget]') || box.hasAttribute(MOUNTED)) script.before((box = document.createElement('div')));
  box.setAttribute('data-trial-widget', '');
  box.setAttribute(MOUNTED, '');
  script.setAttribute(MOUNTED, '');
  const iframe = document.createElement('iframe');
  iframe.src = `${origin}/embed/frame?${query}`;
  iframe.title = 'Study questionnaire';
  // min-height: the element's reserved height, so the page does not move while the frame loads.
  iframe.style.cssText = 'display:block;width:100%;border:0;min-height:inherit';
  box.append(iframe);
  const target = box;
  addEventListener('message', ({ source, origin: from, data }: MessageEvent<unknown>) => {
    if (source !== iframe.contentWindow || from !== origin || typeof data !== 'object' || data === null) return;
    const [height, event, detail]: unknown[] = ['height', 'event', 'detail'].map((name) => Reflect.get(data, name));
    if (typeof height === 'number' && height >= 0) iframe.style.height = `${Math.ceil(height)}px`;
    if (typeof event === 'string' && /^trial-widget:[a-z]+$/.test(event)) target.dispatchEvent(new CustomEvent(event, { bubbles: true, detail }));
  });
  return iframe;
}
