import { describe, expect, it } from 'vitest';
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

  it.each([
    [{ 'data-screener-id': '7' }, /data-media-channel-id/],
    [{ 'data-media-channel-id': '1' }, /data-screener-id/],
    [{ 'data-media-channel-id': '1"><img src=x>', 'data-screener-id': '7' }, /data-media-channel-id/],
    [{ 'data-media-channel-id': '1', 'data-screener-id': '7', 'data-language': 'english' }, /data-language/],
  ])('refuses %j with a clear problem', (attrs, problem) => {
    const result = readSnippet(script(attrs));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(problem);
  });
});

describe('mount', () => {
  it('renders into an open shadow root, in the participant language, and unmounts', () => {
    const host = document.createElement('div');
    document.body.append(host);
    const widget = mount(host, { mediaChannelId: '1', screenerId: '2', language: 'es', apiOrigin: 'http://x' });
    expect(host.shadowRoot).toBe(widget.root);
    expect(host.children).toHaveLength(0);
    expect(widget.root.querySelector('.tw-title')?.textContent).toBe('Cuestionario del estudio');
    widget.unmount();
    expect(widget.root.querySelector('.tw-title')).toBeNull();
  });

  it('mounts several widgets independently', () => {
    const a = document.createElement('div');
    const b = document.createElement('div');
    document.body.append(a, b);
    mount(a, { mediaChannelId: 'a', screenerId: '1', apiOrigin: 'http://x' });
    mount(b, { mediaChannelId: 'b', screenerId: '2', apiOrigin: 'http://x' });
    expect(a.shadowRoot?.querySelector('[data-media-channel-id]')?.getAttribute('data-media-channel-id')).toBe('a');
    expect(b.shadowRoot?.querySelector('[data-media-channel-id]')?.getAttribute('data-media-channel-id')).toBe('b');
  });
});
