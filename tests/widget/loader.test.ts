/**
 * widget.js asks for the survey's start while the module loads: the address it asks is the one
 * the module's first call asks, which then takes that answer instead of asking again (so the
 * first question waits on two requests in a row, not three).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createParticipantCaller } from '@core/participant/call';
import { startCalls } from '@core/participant/start';
import { earlyFetch, loadWidget } from '../../widget/loader';
import type { WidgetGlobal, WidgetModule } from '../../widget/mountOptions';

const host = window as unknown as { TrialWidget?: WidgetGlobal };
const START = 'https://api.test/api/o-forms/participant-start?screenerId=6&mediaChannelId=5';

function snippet(attributes: Record<string, string>): HTMLScriptElement {
  const script = document.createElement('script');
  for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
  return script;
}

/** The loader with the module already there (no import in happy-dom). */
function load(script: HTMLScriptElement) {
  const module = { start: vi.fn(), mount: vi.fn() } as unknown as WidgetModule;
  host.TrialWidget = { ready: Promise.resolve(module) };
  loadWidget('widget/embed.js', script, host, 'widget/frame.js');
}

const startAnswer = () =>
  new Response(JSON.stringify({ meta: { runnable: false, outcome: 'notActive', messages: { contactForm: 'Closed.', consent: null } } }), { status: 200 });

afterEach(() => {
  delete host.TrialWidget;
  vi.unstubAllGlobals();
});

describe("widget.js's early start", () => {
  it("asks for the snippet's start once, and the module's first call takes that answer", async () => {
    const fetch = vi.fn(async () => startAnswer());
    vi.stubGlobal('fetch', fetch);
    load(snippet({ src: 'https://api.test/widget.js', 'data-media-channel-id': ' 5 ', 'data-screener-id': '6' }));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]).toEqual([START, { headers: { Accept: 'application/vnd.api+json' }, credentials: 'omit' }]);
    const caller = createParticipantCaller({ apiOrigin: 'https://api.test', mediaChannelId: '5', fetch: earlyFetch });
    await expect(startCalls(caller, { screenerId: '6' }).loadSurvey('')).rejects.toMatchObject({ outcome: 'notActive' });
    // Taken: no second request, and the answer is not kept for anyone else.
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(host.TrialWidget?.early).toEqual({});
    await earlyFetch(START);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('leaves other requests alone: another method, another address', async () => {
    const fetch = vi.fn(async () => startAnswer());
    vi.stubGlobal('fetch', fetch);
    load(snippet({ src: 'https://api.test/widget.js', 'data-media-channel-id': '5', 'data-screener-id': '6' }));
    await earlyFetch(START, { method: 'POST', body: '{}' });
    await earlyFetch('https://api.test/api/o-forms/participant-start?screenerId=7&mediaChannelId=5');
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(Object.keys(host.TrialWidget?.early ?? {})).toEqual([START]);
  });

  it('asks nothing for a snippet whose ids the widget would refuse', () => {
    const fetch = vi.fn(async () => startAnswer());
    vi.stubGlobal('fetch', fetch);
    load(snippet({ src: 'https://api.test/widget.js', 'data-media-channel-id': '5' }));
    load(snippet({ src: 'https://api.test/widget.js', 'data-media-channel-id': '5 6', 'data-screener-id': '6' }));
    expect(fetch).not.toHaveBeenCalled();
  });
});
