/** SPEC: a deep link's hash is scrolled to smoothly, 1500 ms after the screen opens. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { HASH_SCROLL_DELAY_MS, useScrollToHash } from '../../admin/hooks/useScrollToHash';
import { makeUser, renderAdmin } from './helpers';
import { sponsorViewServer } from './fixtures';

function Probe() {
  useScrollToHash();
  return (
    <>
      <section id="top">Top</section>
      <section id="sites">Sites</section>
    </>
  );
}

const scrolls = () => {
  const spy = vi.fn<(this: Element, options?: ScrollIntoViewOptions) => void>();
  vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element, options?: boolean | ScrollIntoViewOptions) {
    spy.call(this, typeof options === 'object' ? options : undefined);
  });
  return spy;
};

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('scrolling to a deep link’s section', () => {
  it('waits 1500 ms, then scrolls smoothly to the element the hash names', () => {
    vi.useFakeTimers();
    const spy = scrolls();
    render(
      <MemoryRouter initialEntries={['/engagements/view/7#sites']}>
        <Probe />
      </MemoryRouter>,
    );
    act(() => void vi.advanceTimersByTime(HASH_SCROLL_DELAY_MS - 1));
    expect(spy).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(1));
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.contexts[0]?.id).toBe('sites');
    expect(spy.mock.calls[0]?.[0]).toMatchObject({ behavior: 'smooth' });
    expect(HASH_SCROLL_DELAY_MS).toBe(1500);
  });

  it('scrolls to a section that appears after the delay, when it appears', async () => {
    vi.useFakeTimers();
    const spy = scrolls();
    // biome-ignore lint/correctness/noComponentHookFactories: a component made for this one test
    function Late({ shown }: { shown: boolean }) {
      useScrollToHash();
      return shown ? <section id="sites">Sites</section> : <p>Loading…</p>;
    }
    const view = render(
      <MemoryRouter initialEntries={['/engagements/view/7#sites']}>
        <Late shown={false} />
      </MemoryRouter>,
    );
    act(() => void vi.advanceTimersByTime(HASH_SCROLL_DELAY_MS + 500));
    expect(spy).not.toHaveBeenCalled();
    view.rerender(
      <MemoryRouter initialEntries={['/engagements/view/7#sites']}>
        <Late shown />
      </MemoryRouter>,
    );
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(1));
    expect(spy.mock.contexts[0]?.id).toBe('sites');
  });

  it('does nothing without a hash, or for one that names nothing', () => {
    vi.useFakeTimers();
    const spy = scrolls();
    for (const entry of ['/engagements/view/7', '/engagements/view/7#nowhere', '/engagements/view/7#%E0%A4%A']) {
      const view = render(
        <MemoryRouter initialEntries={[entry]}>
          <Probe />
        </MemoryRouter>,
      );
      act(() => void vi.advanceTimersByTime(HASH_SCROLL_DELAY_MS * 2));
      view.unmount();
    }
    expect(spy).not.toHaveBeenCalled();
  });

  it('is wired into the signed-in shell: a sponsor’s #engagements deep link scrolls there', async () => {
    const spy = scrolls();
    renderAdmin({ path: '/sponsors/view/2#engagements', user: makeUser('Admin'), handler: sponsorViewServer(2) });
    await screen.findByRole('heading', { name: 'Engagements' }, { timeout: 5000 });
    await waitFor(() => expect(spy).toHaveBeenCalled(), { timeout: 5000 });
    expect(spy.mock.contexts[0]?.id).toBe('engagements');
    expect(spy.mock.calls[0]?.[0]).toMatchObject({ behavior: 'smooth', block: 'start' });
  }, 15_000);
});
