/**
 * A framed channel's snippet on the partner's page (widget/frame.ts): the iframe of the product's
 * /embed/frame in the snippet's element, and what the page takes from that frame (its height and
 * the host events), from that frame and the product's origin only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { frame } from '../../widget/frame';

const SRC = 'https://api.test/widget.js';

function page(attributes: Record<string, string>, withBox = true) {
  document.body.innerHTML = `${withBox ? '<div data-trial-widget style="display:block;min-height:26em"></div>' : '<p>Article</p>'}<script></script>`;
  const script = document.body.querySelector('script')!;
  for (const [name, value] of Object.entries({ async: '', ...attributes })) script.setAttribute(name, value);
  return script;
}

/** A message as the browser delivers it, from `source` and `origin`. */
const post = (source: MessageEventSource | null, origin: string, data: unknown) => window.dispatchEvent(new MessageEvent('message', { source, origin, data }));

afterEach(() => {
  document.body.innerHTML = '';
});

describe("a framed channel's snippet", () => {
  it("builds the product's frame in the snippet's element, passing its ids, language, hidden fields and the page's origin and path", () => {
    const script = page({
      'data-media-channel-id': '12',
      'data-screener-id': '3',
      'data-language': 'es',
      'data-field-partner_id': 'a&b',
      'data-isolation': 'frame',
      'data-other': 'x',
    });
    const iframe = frame(script, SRC);
    const box = script.previousElementSibling!;
    expect(iframe.parentElement).toBe(box);
    const url = new URL(iframe.src);
    expect(url.origin + url.pathname).toBe('https://api.test/embed/frame');
    // Only what the frame's page takes; the page's own origin is where the frame posts.
    expect([...url.searchParams]).toEqual([
      ['origin', location.origin],
      ['path', location.pathname],
      ['media-channel-id', '12'],
      ['screener-id', '3'],
      ['language', 'es'],
      ['field-partner_id', 'a&b'],
    ]);
    expect(iframe.title).toBe('Study questionnaire');
    // No border, the element's width, and its reserved height kept while the frame loads.
    expect(iframe.style.minHeight).toBe('inherit');
    expect(iframe.style.border).toMatch(/^0/);
    expect(iframe.style.width).toBe('100%');
    // Both marked mounted: the widget's module, if another snippet loads it, leaves them alone.
    expect(box.hasAttribute('data-trial-widget-mounted')).toBe(true);
    expect(script.hasAttribute('data-trial-widget-mounted')).toBe(true);
  });

  it("passes the page's path and campaign parameters, and nothing else of its address", () => {
    history.replaceState(null, '', '/news/caf%C3%A9 article?utm_source=news&utm_campaign=winter&q=private&id=7#reader@example.com');
    try {
      const iframe = frame(page({ 'data-media-channel-id': '12', 'data-screener-id': '3' }), SRC);
      const query = new URL(iframe.src).searchParams;
      expect([...query.keys()]).toEqual(['origin', 'path', 'media-channel-id', 'screener-id', 'utm_source', 'utm_campaign']);
      // The path as the browser gives it (encoded): never its query or fragment.
      expect(query.get('path')).toBe('/news/caf%C3%A9%20article');
      expect(query.get('utm_campaign')).toBe('winter');
      expect(iframe.src).not.toContain('private');
      expect(iframe.src).not.toContain('reader');
    } finally {
      history.replaceState(null, '', '/');
    }
  });

  it('makes its own element when the snippet lost its div', () => {
    const script = page({ 'data-media-channel-id': '12', 'data-screener-id': '3' }, false);
    const iframe = frame(script, SRC);
    expect(iframe.parentElement).toBe(script.previousElementSibling);
    expect(iframe.parentElement?.hasAttribute('data-trial-widget')).toBe(true);
    expect(document.body.querySelector('p')?.contains(iframe)).toBe(false);
  });

  it("takes the frame's height and host events from the frame and the product's origin only, and dispatches the events on the page as the widget does", () => {
    const script = page({ 'data-media-channel-id': '12', 'data-screener-id': '3' });
    const iframe = frame(script, SRC);
    // happy-dom loads no frame: the frame's window is a stand-in the browser would give.
    const source = new MessageChannel().port1;
    Object.defineProperty(iframe, 'contentWindow', { value: source });
    const heard: { type: string; detail: unknown; target: EventTarget | null }[] = [];
    for (const name of ['trial-widget:view', 'trial-widget:start', 'trial-widget:finish', 'trial-widget:evil', 'message-other']) {
      document.addEventListener(name, (e) => heard.push({ type: e.type, detail: (e as CustomEvent).detail, target: e.target }));
    }
    const detail = { mediaChannelId: '12', screenerId: '3' };
    post(source, 'https://api.test', { height: 431.2 });
    expect(iframe.style.height).toBe('432px');
    post(source, 'https://api.test', { event: 'trial-widget:start', detail });
    expect(heard).toEqual([{ type: 'trial-widget:start', detail, target: script.previousElementSibling }]);
    // Another origin, another window (the page itself), or anything that is not a height or a widget event: ignored.
    post(source, 'https://evil.test', { height: 10, event: 'trial-widget:finish', detail });
    post(window, 'https://api.test', { height: 10, event: 'trial-widget:finish', detail });
    post(null, 'https://api.test', { height: 10, event: 'trial-widget:finish', detail });
    post(source, 'https://api.test', { height: '10px; position: fixed', event: 'message-other' });
    post(source, 'https://api.test', { height: -5, event: 'trial-widget:' });
    post(source, 'https://api.test', null);
    post(source, 'https://api.test', 'trial-widget:view');
    expect(iframe.style.height).toBe('432px');
    expect(heard.map((e) => e.type)).toEqual(['trial-widget:start']);
  });
});
