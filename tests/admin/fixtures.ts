import type { MediaChannel } from '@core/model/mediaChannel';
import type { Referral } from '@core/model/referral';
import { NO_SPONSOR_FIGURES, type Sponsor } from '@core/model/sponsor';
import { NO_CHANNEL_FIGURES } from '../support/channelFigures';
import { json, listDocument, resourceDocument, type Handler } from './helpers';

export function makeSponsor(id: number, overrides: Partial<Sponsor> = {}): Sponsor {
  return {
    id: String(id),
    name: `Sponsor ${id}`,
    identification: `SP-${id}`,
    rmsSponsorIdentifier: null,
    description: null,
    isActive: true,
    businessPractice: null,
    countryId: null,
    countryName: null,
    created: '2024-05-01T10:00:00Z',
    modified: '2024-05-02T10:00:00Z',
    ...NO_SPONSOR_FIGURES,
    ...overrides,
  };
}

/** The calls of sponsor `id`'s view: the sponsor, with no engagements and no screeners; any other call goes to `rest`. */
export const sponsorViewServer =
  (id: number, rest: Handler = () => undefined): Handler =>
  (request, url) =>
    url.pathname === `/api/sponsors/${id}`
      ? json(resourceDocument('sponsors', makeSponsor(id)))
      : url.pathname === '/api/engagements' || url.pathname === '/api/screeners'
        ? json(listDocument(url.pathname.slice(5), []))
        : rest(request, url);

export const COUNTRIES = [
  { id: '1', name: 'Canada', isoCode: 'CA' },
  { id: '2', name: 'United States', isoCode: 'US' },
];

/** A media channel as the API answers it: a partner website of screener 5 (sponsor 7), no figures yet. */
export function makeMediaChannel(id: number, overrides: Partial<MediaChannel> = {}): MediaChannel {
  return {
    id: String(id),
    title: 'Partner page',
    domain: 'www.partner.example',
    screenerId: 5,
    screenerName: 'Heart screener',
    sponsorId: 7,
    sponsorName: 'Acme Pharma',
    channelType: 'Partner Website',
    isActive: true,
    retakeWindowDays: 30,
    hiddenFields: [],
    eventsPolicy: 'minimal',
    locale: 'en-US',
    isolation: 'none',
    ...NO_CHANNEL_FIGURES,
    created: '2024-05-01T10:00:00Z',
    modified: '2024-05-01T10:00:00Z',
    ...overrides,
  };
}

/** A referral resource as the API answers it: new at Hoboken Heart Center (site 4) for the Heart study (engagement 12), its first contact overdue. */
export function makeReferral(id: number, overrides: Record<string, unknown> = {}) {
  const attributes: Omit<Referral, 'id'> = {
    status: 'new',
    reasonId: null,
    reasonName: null,
    reasonNote: null,
    engagementId: 12,
    engagementName: 'Heart study',
    siteLocationId: 4,
    siteName: 'Hoboken Heart Center',
    initials: 'AL',
    created: '2026-11-20T10:00:00Z',
    statusChanged: null,
    firstContactAt: null,
    attempts: 0,
    lastAttemptAt: null,
    nextAttemptDue: null,
    due: '2026-11-22T10:00:00Z',
    overdue: true,
    stale: false,
    deliveryStatus: 'delivered',
    allowedStatuses: ['attempting-contact', 'contacted', 'withdrawn', 'not-reachable'],
  };
  return { type: 'referrals', id: String(id), attributes: { ...attributes, ...overrides } };
}

/** The engagement the engagement view's tests open: Heart study (E-12) of Acme Pharma, as GET /api/engagements/12 answers its attributes. */
export function makeEngagementAttributes(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Heart study',
    sponsorId: 7,
    sponsorName: 'Acme Pharma',
    identification: 'E-12',
    fullIdentification: 'ACME-E-12',
    isActive: true,
    radius: 25,
    created: '2024-05-01T10:00:00Z',
    modified: '2024-05-01T10:00:00Z',
    ...overrides,
  };
}

/**
 * The media channel screens' answers for `channel`: the channel itself and, empty, the survey lists
 * its view asks for (and the `emptyLists` paths named); anything else goes to `next`.
 */
export const mediaChannelAnswers =
  (channel: MediaChannel, next: Handler = () => undefined, emptyLists: readonly string[] = []): Handler =>
  (request, url) => {
    const path = url.pathname.replace(/^\/api\//, '');
    if (path === `media-channels/${channel.id}`) return json(resourceDocument('media-channels', channel));
    if (path === 'media-channel-surveys' || path === 'screener-surveys' || emptyLists.includes(path)) return json(listDocument(path, []));
    return next(request, url);
  };
