import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { useSearchUpdate } from '../../admin/routing/searchUpdate';

function Setter() {
  const [params, change] = useSearchUpdate();
  const set = (name: string, value: string) =>
    change((current) => {
      current.set(name, value);
      return current;
    });
  return (
    <>
      <output>{params.toString()}</output>
      <button type="button" onClick={() => set('a', '1')}>
        a
      </button>
      <button type="button" onClick={() => set('b', '2')}>
        b
      </button>
      <button
        type="button"
        onClick={() => {
          set('a', '1');
          set('b', '2');
        }}
      >
        both
      </button>
    </>
  );
}

afterEach(cleanup);

const renderAt = (path: string) => {
  const router = createMemoryRouter([{ path: '/', element: <Setter /> }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return { router, search: () => router.state.location.search };
};

describe('useSearchUpdate', () => {
  it('builds each change on the ones asked for before it, rendered or not', async () => {
    const { search } = renderAt('/?keep=x');
    fireEvent.click(screen.getByRole('button', { name: 'both' }));
    await screen.findByText('keep=x&a=1&b=2');
    expect(search()).toBe('?keep=x&a=1&b=2');
  });

  it('starts from the location when it moved elsewhere than asked (Back)', async () => {
    const { router, search } = renderAt('/?keep=x');
    fireEvent.click(screen.getByRole('button', { name: 'a' }));
    await screen.findByText('keep=x&a=1');
    await act(() => router.navigate(-1));
    await screen.findByText('keep=x');
    fireEvent.click(screen.getByRole('button', { name: 'b' }));
    await screen.findByText('keep=x&b=2');
    expect(search()).toBe('?keep=x&b=2');
  });
});
