import { describe, expect, it, vi } from 'vitest';
import type { WidgetTransport } from '../../widget/controller';
import { mount } from '../../widget/mount';
import { readSnippet } from '../../widget/snippet';

function script(attrs: Record<string, string>): HTMLScriptElement {
  const el = document.createElement('script');
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

describe('readSnippet', () => {
  it('reads the media channel, screener and language', () => {
    expect(readSnippet(script({ 'data-media-channel-id': '12', 'data-screener-id': '7', 'data-language': 'es-MX' }))).toEqual({
      ok: true,
      options: { mediaChannelId: '12', screenerId: '7', language: 'es-MX' },
      language: 'es-MX',
    });
  });

  it('reads the hidden fields (data-field-<name>) as they are', () => {
    const result = readSnippet(
      script({ 'data-media-channel-id': '12', 'data-screener-id': '7', 'data-field-partner_ref': 'abc', 'data-field-click-id': 'x'.repeat(2100) }),
    );
    expect(result.ok && result.options.fields).toEqual({ partner_ref: 'abc', 'click-id': 'x'.repeat(2100) });
  });

  it("reads the page the run names from data-page-url (the frame's page gives the partner page's), else none: the widget's own page", () => {
    const framed = readSnippet(
      script({ 'data-media-channel-id': '12', 'data-screener-id': '7', 'data-page-url': 'https://www.partner.example/news/a?utm_source=x' }),
    );
    expect(framed.ok && framed.options.pageUrl).toBe('https://www.partner.example/news/a?utm_source=x');
    const own = readSnippet(script({ 'data-media-channel-id': '12', 'data-screener-id': '7' }));
    expect(own.ok && own.options.pageUrl).toBeUndefined();
  });

  it.each([
    [{ 'data-screener-id': '7' }, /data-media-channel-id/],
    [{ 'data-media-channel-id': '1' }, /data-screener-id/],
    [{ 'data-media-channel-id': '1"><img src=x>', 'data-screener-id': '7' }, /data-media-channel-id/],
  ])('refuses %j with a clear problem', (attrs, problem) => {
    const result = readSnippet(script(attrs));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(problem);
  });
});

describe('a language the widget cannot use', () => {
  it.each(['english', 'EN_us_x', '<b>', 'e'])('data-language %j is dropped, never a reason to hide the survey', (language) => {
    expect(readSnippet(script({ 'data-media-channel-id': '1', 'data-screener-id': '7', 'data-language': language }))).toEqual({
      ok: true,
      options: { mediaChannelId: '1', screenerId: '7', language: undefined },
      language: undefined,
    });
  });

  /** The first page's title, Next button and the card's lang for a snippet language and the browser's. */
  async function shown(language: string | undefined, browserLanguages: string[], languages = ['en', 'es']) {
    const host = document.createElement('div');
    document.body.append(host);
    const transport = { ...transportFor('1'), loadSurvey: async () => ({ id: '1', identity: 'S', title: 'S', containerCount: 1, languages }) };
    const widget = mount(host, { mediaChannelId: '1', screenerId: '2', language, browserLanguages, apiOrigin: 'http://x', transport, storage: null });
    await vi.waitFor(() => expect(widget.root.querySelector('.tw-title')?.textContent).toBe('Page of 1'));
    const card = widget.root.querySelector('.tw-card')!;
    const result = [card.getAttribute('lang'), widget.root.querySelector('button[type=submit]')?.textContent];
    widget.unmount();
    return result;
  }

  it('an unknown or unsupported language falls back to the browser’s when the survey has it, else English; lang names what is shown', async () => {
    expect(await shown(undefined, ['es-MX', 'en'])).toEqual(['es', 'Siguiente']);
    expect(await shown('fr', ['es-US'])).toEqual(['es', 'Siguiente']);
    expect(await shown('xx', ['de-DE'])).toEqual(['en', 'Next']);
    expect(await shown('es', ['en'], ['en'])).toEqual(['en', 'Next']);
    expect(await shown('es_MX', ['en'], ['en', 'es_MX'])).toEqual(['es-MX', 'Siguiente']);
  });
});

/** A transport that names its survey after the channel and shows one text question. */
function transportFor(channel: string): WidgetTransport {
  const page = { id: 'p', identity: 'p', title: `Page of ${channel}`, displayOrder: 1, fields: [] };
  return {
    loadSurvey: async () => ({ id: '1', identity: 'S', title: 'S', containerCount: 1, languages: ['en', 'es'] }),
    createSubmission: async () => ({ submissionId: 's' }),
    firstPage: async () => page,
    page: async () => page,
    createEntry: async () => ({ entryId: 'e' }),
    saveAnswers: async () => ({ ok: true, nextContainerIdentity: null, nextContainerEntryId: null }),
    previewAnswers: async () => ({ ok: true, nextContainerIdentity: null, nextContainerEntryId: null }),
    sanitize: async () => true,
    qualification: async () => ({ isQualified: true }),
  };
}

describe('mount', () => {
  it('renders into an open shadow root with adopted stylesheets, in the participant language, and unmounts', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const widget = mount(host, { mediaChannelId: '1', screenerId: '2', language: 'es', apiOrigin: 'http://x', transport: transportFor('1'), storage: null });
    expect(host.shadowRoot).toBe(widget.root);
    expect(host.children).toHaveLength(0);
    expect(widget.root.adoptedStyleSheets).toHaveLength(2);
    expect(widget.root.querySelectorAll('style')).toHaveLength(0);
    await vi.waitFor(() => expect(widget.root.querySelector('.tw-title')?.textContent).toBe('Page of 1'));
    expect(widget.root.querySelector('button[type=submit]')?.textContent).toBe('Siguiente');
    widget.unmount();
    expect(widget.root.querySelector('.tw-title')).toBeNull();
  });

  it('mounts several widgets independently', async () => {
    const a = document.createElement('div');
    const b = document.createElement('div');
    document.body.append(a, b);
    mount(a, { mediaChannelId: 'a', screenerId: '1', apiOrigin: 'http://x', transport: transportFor('a'), storage: null });
    mount(b, { mediaChannelId: 'b', screenerId: '2', apiOrigin: 'http://x', transport: transportFor('b'), storage: null });
    await vi.waitFor(() => expect(b.shadowRoot?.querySelector('.tw-title')?.textContent).toBe('Page of b'));
    expect(a.shadowRoot?.querySelector('[data-media-channel-id]')?.getAttribute('data-media-channel-id')).toBe('a');
    expect(a.shadowRoot?.querySelector('.tw-title')?.textContent).toBe('Page of a');
    expect(a.shadowRoot?.adoptedStyleSheets[1]).not.toBe(b.shadowRoot?.adoptedStyleSheets[1]);
  });

  it('shows the friendly message when the API cannot be reached, logs one error, and retries', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    let down = true;
    const fetch = vi.fn(async (url: string | URL | Request) => {
      if (down) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify({ meta: { runnable: false, messages: { contactForm: 'Closed for now.' } } }), { status: 200 });
    });
    const host = document.createElement('div');
    document.body.append(host);
    const widget = mount(host, { mediaChannelId: '5', screenerId: '6', apiOrigin: 'http://api.test', fetch: fetch as typeof globalThis.fetch, storage: null });
    await vi.waitFor(() =>
      expect(widget.root.querySelector('[role=alert] p')?.textContent).toBe('This questionnaire could not be loaded. Please let the website owner know.'),
    );
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0]?.[0])).toBe('http://api.test/api/o-forms/participant-start?screenerId=6&mediaChannelId=5');
    down = false;
    (widget.root.querySelector('[role=alert] button') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(widget.root.querySelector('.tw-html')?.textContent).toBe('Closed for now.'));
    errors.mockRestore();
  });

  it('counts a view once, when at least half of the widget is on screen, and never in preview', async () => {
    const observers: { callback: IntersectionObserverCallback; target?: Element; connected: boolean }[] = [];
    class FakeObserver {
      o: (typeof observers)[number];
      constructor(callback: IntersectionObserverCallback) {
        this.o = { callback, connected: true };
        observers.push(this.o);
      }
      observe(target: Element) {
        this.o.target = target;
      }
      disconnect() {
        this.o.connected = false;
      }
    }
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const seen = (ratio: number, height = 100) =>
      observers.at(-1)!.callback(
        [
          {
            isIntersecting: ratio > 0,
            intersectionRatio: ratio,
            intersectionRect: { height: height * ratio },
            rootBounds: { height: 800 },
          } as unknown as IntersectionObserverEntry,
        ],
        {} as IntersectionObserver,
      );
    try {
      const view = vi.fn(async () => undefined);
      /** The widget in a new host on the page, its views reported to `view`. */
      const mountSeen = (extra: { preview?: boolean } = {}) => {
        const host = document.createElement('div');
        document.body.append(host);
        return {
          host,
          widget: mount(host, {
            mediaChannelId: '1',
            screenerId: '2',
            apiOrigin: 'http://x',
            transport: { ...transportFor('1'), view },
            storage: null,
            ...extra,
          }),
        };
      };
      const { host, widget } = mountSeen();
      await vi.waitFor(() => expect(widget.root.querySelector('.tw-title')?.textContent).toBe('Page of 1'));
      expect(observers.at(-1)!.target).toBe(host);
      seen(0);
      seen(0.25);
      expect(view).not.toHaveBeenCalled();
      seen(0.5);
      expect(view).toHaveBeenCalledTimes(1);
      expect(observers.at(-1)!.connected).toBe(false);
      widget.unmount();

      // Taller than two viewports: filling half of the viewport is enough.
      const { widget: tallWidget } = mountSeen();
      await vi.waitFor(() => expect(tallWidget.root.querySelector('.tw-title')).not.toBeNull());
      seen(0.25, 2000);
      expect(view).toHaveBeenCalledTimes(2);
      tallWidget.unmount();

      const count = observers.length;
      const { widget: previewWidget } = mountSeen({ preview: true });
      await vi.waitFor(() => expect(previewWidget.root.querySelector('.tw-title')).not.toBeNull());
      expect(observers.length).toBe(count);
      previewWidget.unmount();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
