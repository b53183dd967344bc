import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { COPIED } from '../../admin/sections/media-channels/View';
import { makeUser, renderAdmin, stubClipboard } from './helpers';
import { makeMediaChannel, mediaChannelAnswers } from './fixtures';

const channel = makeMediaChannel(12, { title: 'Instagram post', domain: 'instagram.com', channelType: 'Social Media', share: 3 });

const handler = mediaChannelAnswers(channel);

describe('Media channel participant link', () => {
  it('shows the hosted page link with a QR code and copies it', async () => {
    const writeText = stubClipboard();
    renderAdmin({ path: '/media-channels/view/12', user: makeUser('Admin'), handler });
    const link = (await screen.findByLabelText('Participant link', { exact: true })) as HTMLInputElement;
    const expected = `${window.location.origin}/take/12`;
    expect(link.value).toBe(expected);
    expect(screen.getByRole('link', { name: 'Open the participant page' }).getAttribute('href')).toBe(expected);
    const qr = screen.getByAltText(`QR code of ${expected}`) as HTMLImageElement;
    expect(qr.src).toMatch(/^data:image\/svg\+xml/);
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await screen.findByText(COPIED);
    expect(writeText).toHaveBeenCalledWith(expected);
  });
});
