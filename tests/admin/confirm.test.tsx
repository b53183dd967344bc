import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { ConfirmProvider, useConfirm, type ConfirmOptions } from '../../admin/components/confirm/ConfirmProvider';
import { sanitizeHtml } from '../../admin/components/confirm/sanitizeHtml';
import './helpers';

function Asker({ options }: { options: ConfirmOptions }) {
  const confirm = useConfirm();
  const [answer, setAnswer] = useState('none');
  return (
    <>
      <button type="button" onClick={async () => setAnswer(String(await confirm(options)))}>
        Ask
      </button>
      <output>{answer}</output>
    </>
  );
}

function ask(options: ConfirmOptions = { title: 'Delete Sponsor', message: 'Are you sure you want to delete this ?' }) {
  render(
    <ConfirmProvider>
      <Asker options={options} />
    </ConfirmProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
  return screen.findByRole('dialog', { name: 'Delete Sponsor' });
}

describe('Confirm dialog', () => {
  it('resolves true on Confirm and closes', async () => {
    const dialog = await ask();
    expect(within(dialog).getByText('Are you sure you want to delete this ?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(document.querySelector('output')?.textContent).toBe('true'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('resolves false on Cancel', async () => {
    const dialog = await ask();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.querySelector('output')?.textContent).toBe('false'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('resolves false on Escape', async () => {
    const dialog = await ask();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(document.querySelector('output')?.textContent).toBe('false'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the HTML message with scripts and event handlers removed', async () => {
    const dialog = await ask({
      title: 'Delete Sponsor',
      message: '<p>Delete <b>Acme</b>?</p><script>window.hacked = 1</script><img src="x" onerror="window.hacked = 2"><em onclick="x()">now</em>',
    });
    expect(dialog.querySelector('b')?.textContent).toBe('Acme');
    expect(dialog.querySelector('em')?.getAttribute('onclick')).toBeNull();
    expect(dialog.querySelector('script')).toBeNull();
    expect(dialog.querySelector('img')).toBeNull();
    expect(dialog.innerHTML).not.toContain('onerror');
    expect(dialog.innerHTML).not.toContain('hacked');
  });
});

describe('sanitizeHtml', () => {
  it('keeps the allowed formatting tags without attributes', () => {
    expect(sanitizeHtml('<p class="x" style="color:red">One<br>two</p><ul><li><strong>a</strong></li></ul>')).toBe(
      '<p>One<br>two</p><ul><li><strong>a</strong></li></ul>',
    );
  });

  it('unwraps unknown elements and drops code with its content', () => {
    expect(sanitizeHtml('<div><a href="javascript:alert(1)">link</a></div><style>p{}</style><iframe src="x"></iframe>')).toBe('link');
    expect(sanitizeHtml('plain &lt;b&gt;<script>alert(1)</script>')).toBe('plain &lt;b&gt;');
    expect(sanitizeHtml('<svg onload="alert(1)"><g>drawing</g></svg>')).toBe('');
  });
});
