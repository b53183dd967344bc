/**
 * Where the module mounts each snippet's widget (embed.ts): its own div before or after it, a
 * `data-target`, a new element after a script without one (at the start of the body for a
 * script in <head>), two on a page, and snippets an SPA adds later.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const mounts: { host: HTMLElement; options: Record<string, unknown> }[] = [];
vi.mock('../../widget/mount', () => ({
  mount: (host: HTMLElement, options: Record<string, unknown>) => {
    mounts.push({ host, options });
    return { root: host.attachShadow({ mode: 'open' }), unmount() {} };
  },
}));

const tag = (channel = '1', extra = '') =>
  `<script src="https://api.example/widget.js" data-media-channel-id="${channel}" data-screener-id="2"${extra}></script>`;

/** A fresh copy of the module (its list of mounts is per page load) started over the current document. */
async function start() {
  vi.resetModules();
  const embed = await import('../../widget/embed');
  embed.start();
  return embed;
}

/** Scripts set through innerHTML do not run: the document as a parser would leave it. */
function page(head: string, body: string) {
  document.head.innerHTML = head;
  document.body.innerHTML = body;
}

// The test's script tags are never fetched: happy-dom takes them as loaded, without a console error.
const happyDom = (window as unknown as { happyDOM?: { settings: { handleDisabledFileLoadingAsSuccess: boolean } } }).happyDOM;
if (happyDom) happyDom.settings.handleDisabledFileLoadingAsSuccess = true;

beforeEach(() => {
  mounts.length = 0;
  page('', '');
});

describe('the snippet, wherever it is pasted', () => {
  it('mounts in its own div whether the div comes before or after the script', async () => {
    page('', `<p>a</p><div data-trial-widget id="before"></div>${tag('1')}<p>b</p>${tag('3')}<div data-trial-widget id="after"></div>`);
    await start();
    expect(mounts.map((m) => [m.host.id, m.options.mediaChannelId])).toEqual([
      ['before', '1'],
      ['after', '3'],
    ]);
    expect(mounts[0]!.options.apiOrigin).toBe('https://api.example');
  });

  it('in <head>, mounts in the page’s div, or without one at the start of the body, never in the head', async () => {
    page(tag('1'), '<h1>Partner</h1><div data-trial-widget id="mine"></div>');
    await start();
    expect(mounts.map((m) => m.host.id)).toEqual(['mine']);

    mounts.length = 0;
    page(tag('1'), '<h1>Partner</h1>');
    await start();
    expect(mounts).toHaveLength(1);
    const host = mounts[0]!.host;
    expect(host.parentElement).toBe(document.body);
    expect(document.body.firstElementChild).toBe(host);
    expect(host.hasAttribute('data-trial-widget')).toBe(true);
    expect(document.head.querySelector('[data-trial-widget]')).toBeNull();
  });

  it('without a div, mounts right after itself in the body', async () => {
    page('', `<h1>Partner</h1><section>${tag('1')}<p>after</p></section>`);
    await start();
    const host = mounts[0]!.host;
    expect(host.previousElementSibling?.tagName).toBe('SCRIPT');
    expect(host.nextElementSibling?.textContent).toBe('after');
  });

  it('mounts where data-target says, and says in one console line when it names nothing', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    page(tag('1', ' data-target="#slot"'), '<div data-trial-widget id="other"></div><aside id="slot"></aside>');
    await start();
    expect(mounts.map((m) => m.host.id)).toEqual(['slot']);
    expect(document.getElementById('slot')!.hasAttribute('data-trial-widget')).toBe(true);

    mounts.length = 0;
    page('', `${tag('1', ' data-target="#missing"')}${tag('1', ' data-target="[["')}`);
    await start();
    expect(mounts).toEqual([]);
    expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([
      '[trial widget] data-target "#missing" matches no free element on this page.',
      '[trial widget] could not start:',
    ]);
    expect(String(errors.mock.calls[1]![1])).toContain('[[');
    errors.mockRestore();
  });

  it('twice on a page: each in its own place, in document order', async () => {
    page('', `<div data-trial-widget id="a"></div>${tag('1')}<p>between</p><div data-trial-widget id="b"></div>${tag('1')}${tag('5')}`);
    await start();
    expect(mounts.map((m) => [m.host.id || 'new', m.options.mediaChannelId])).toEqual([
      ['a', '1'],
      ['b', '1'],
      ['new', '5'],
    ]);
  });

  it('added by an SPA after load: each start mounts only what is new', async () => {
    page('', `<div id="app"></div>`);
    const embed = await start();
    expect(mounts).toEqual([]);
    const app = document.getElementById('app')!;
    app.innerHTML = `<div data-trial-widget id="first"></div>${tag('1')}`;
    embed.start();
    app.insertAdjacentHTML('beforeend', `<div data-trial-widget id="second"></div>${tag('1')}`);
    embed.start();
    embed.start();
    expect(mounts.map((m) => m.host.id)).toEqual(['first', 'second']);
  });
});
