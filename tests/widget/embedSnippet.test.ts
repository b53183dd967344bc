import { describe, expect, it } from 'vitest';
import { embedSnippet } from '@core/model/mediaChannel';
import { readSnippet } from '../../widget/snippet';

describe('the admin snippet and the widget', () => {
  it('carries exactly the attributes the widget reads, with the container before the script', () => {
    const host = document.createElement('div');
    host.innerHTML = embedSnippet('https://trial.example', '12', 7);
    const [container, script] = Array.from(host.children) as HTMLElement[];
    expect(container?.hasAttribute('data-trial-widget')).toBe(true);
    expect(script?.tagName).toBe('SCRIPT');
    expect(script?.getAttribute('src')).toBe('https://trial.example/widget.js');
    expect(script?.hasAttribute('async')).toBe(true);
    expect(readSnippet(script!)).toEqual({ ok: true, options: { mediaChannelId: '12', screenerId: '7', language: undefined }, language: undefined });
  });
});
